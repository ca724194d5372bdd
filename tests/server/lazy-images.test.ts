import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstRowCards } from "../../server/http/rendering/first-row.ts";
import { type TestShop, testConfig, testShop } from "../support/app.ts";
import { shopper } from "../support/shopper.ts";

/**
 * Which images load with the page and which wait for the lazy-load behaviour (within
 * 250 px of view) or a carousel. Real scrolling is in tests/e2e/lazy-images.spec.ts.
 */

/** The shop's catalogue with every product in one category, so its page has more than one row of cards. */
function oneBigCategory(): string {
  const data = JSON.parse(readFileSync(testConfig().cataloguePath, "utf8"));
  const category = data.categories[0].id;
  for (const product of data.products) product.category = category;
  const file = join(mkdtempSync(join(tmpdir(), "lazy-images-")), "catalogue.json");
  writeFileSync(file, JSON.stringify(data));
  return file;
}

let shop: TestShop;
let bigShop: TestShop;
beforeAll(async () => {
  [shop, bigShop] = await Promise.all([testShop(), testShop({ env: { CATALOGUE_PATH: oneBigCategory() } })]);
});
afterAll(() => Promise.all([shop.close(), bigShop.close()]));

async function page(url: string, from = shop): Promise<string> {
  const res = await from.app.inject({ url, headers: { host: "shop.test" } });
  expect(res.statusCode, url).toBe(200);
  return /<main[\s\S]*<\/main>/.exec(res.body)?.[0] ?? "";
}

const cardsIn = (html: string) =>
  [...html.matchAll(/<article class="product-card">[\s\S]*?<\/article>/g)].map((m) => m[0]);
const productImage = /\/static\/images\/products\/[\w-]+\.svg/;

/** A card whose picture loads with the page: a plain image, nothing waiting, no copy. */
function expectEager(card: string, where: string): void {
  const img = /<img [^>]*>/.exec(card)?.[0] ?? "";
  expect(img, where).toMatch(new RegExp(`^<img class="product-card__image" src="${productImage.source}"`));
  expect(img, where).toContain('width="400" height="300"');
  expect(img, where).not.toMatch(/loading="lazy"|data-lazy-src|data-carousel-src/);
  expect(card, where).not.toContain("<noscript>");
}

/**
 * A card whose picture waits: an empty placeholder of its size, the address aside for the
 * loader, and a <noscript> copy (lazy by the browser) for shoppers without JavaScript.
 */
function expectWaiting(card: string, where: string, attribute: "data-lazy-src" | "data-carousel-src"): void {
  const [img = "", copy = ""] = /(<img [^>]*>)<noscript>(<img [^>]*>)<\/noscript>/.exec(card)?.slice(1) ?? [];
  expect(img, where).toMatch(/^<img class="lazy-image product-card__image" src="data:image\/svg\+xml,/);
  const source = new RegExp(`${attribute}="(${productImage.source})"`).exec(img)?.[1];
  expect(source, where).toBeDefined();
  expect(img, where).toContain('alt="" width="400" height="300"');
  expect(copy, where).toBe(
    `<img class="product-card__image" src="${source}" alt="" width="400" height="300" decoding="async" loading="lazy">`,
  );
}

describe("a category page", () => {
  it("loads the first row of cards with the page: the whole of today's categories", async () => {
    for (const url of ["/assortiment/fotoboeken", "/assortiment/wanddecoratie", "/sortiment/fotobuecher"]) {
      const cards = cardsIn(await page(url));
      expect(cards.length, url).toBeGreaterThan(0);
      expect(cards.length, url).toBeLessThanOrEqual(firstRowCards);
      for (const [i, card] of cards.entries()) expectEager(card, `${url}, card ${i + 1}`);
    }
  });

  it("lets the cards after the first row wait until they come near, each with a copy for shoppers without JavaScript", async () => {
    expect(firstRowCards).toBe(3);
    for (const url of ["/assortiment/fotoboeken", "/sortiment/fotobuecher"]) {
      const cards = cardsIn(await page(url, bigShop));
      expect(cards, url).toHaveLength(9);
      for (const [i, card] of cards.slice(0, 3).entries()) expectEager(card, `${url}, card ${i + 1}`);
      for (const [i, card] of cards.slice(3).entries())
        expectWaiting(card, `${url}, card ${i + 4}`, "data-lazy-src");
    }
  });
});

describe("the home page", () => {
  it("loads the first row of the range with the page and the rest when scrolled near", async () => {
    const cards = cardsIn(await page("/"));
    expect(cards).toHaveLength(9);
    for (const [i, card] of cards.slice(0, 3).entries()) expectEager(card, `card ${i + 1}`);
    for (const [i, card] of cards.slice(3).entries()) expectWaiting(card, `card ${i + 4}`, "data-lazy-src");
  });
});

describe('the product page\'s "Ook leuk"', () => {
  it("waits with every card: the first for the lazy-load behaviour, the others for the carousel", async () => {
    const html = await page("/assortiment/fotoboeken/exclusief-fotoboek");
    const related = html.slice(html.indexOf('id="related-products"'));
    const cards = cardsIn(related);
    expect(cards).toHaveLength(8);
    expectWaiting(cards[0] ?? "", "card 1", "data-lazy-src");
    for (const [i, card] of cards.slice(1).entries())
      expectWaiting(card, `card ${i + 2}`, "data-carousel-src");
  });

  it("lets the gallery's later photos wait for the carousel, with srcset and sizes aside until then", async () => {
    const html = await page("/assortiment/fotoboeken/exclusief-fotoboek");
    const gallery = html.slice(html.indexOf('id="product-images"'), html.indexOf('id="related-products"'));
    const slides = [...gallery.matchAll(/<li class="carousel__slide[^"]*">([\s\S]*?)<\/li>/g)].map(
      (m) => m[1] ?? "",
    );
    expect(slides.length).toBeGreaterThan(2);
    let responsive = 0;
    for (const slide of slides.slice(1)) {
      const [img = "", copy = ""] =
        /(<img [^>]*>)<noscript>(<img [^>]*>)<\/noscript>/.exec(slide)?.slice(1) ?? [];
      expect(img).toMatch(/^<img class="lazy-image carousel__image" src="data:image\/svg\+xml,/);
      expect(img).not.toMatch(/ (srcset|sizes)=/);
      const source = / data-carousel-src="([^"]+)"/.exec(img)?.[1] ?? "";
      expect(copy).toContain(` src="${source}"`);
      expect(copy).toContain(' loading="lazy"');
      const srcset = / data-carousel-srcset="([^"]+)"/.exec(img)?.[1];
      if (srcset) {
        responsive++;
        expect(img).toContain(' data-carousel-sizes="(max-width: 480px) 320px, 720px"');
        expect(copy).toContain(` srcset="${srcset}" sizes="(max-width: 480px) 320px, 720px"`);
      }
    }
    expect(responsive, "the 360 frames come in two widths").toBeGreaterThan(0);
  });
});

describe("the cart's tips (cross-sell)", () => {
  it("wait with their pictures until they come near", async () => {
    const s = await shopper(shop.app, "/assortiment/fotoboeken/exclusief-fotoboek");
    const added = await s.post("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      quantity: "1",
    });
    expect(added.statusCode).toBe(303);
    const html = (await s.get("/winkelwagen/inhoud")).body;
    const cards = cardsIn(html.slice(html.indexOf('class="cart-tips"')));
    expect(cards.length).toBeGreaterThan(1);
    expectWaiting(cards[0] ?? "", "tip 1", "data-lazy-src");
    for (const [i, card] of cards.slice(1).entries())
      expectWaiting(card, `tip ${i + 2}`, "data-carousel-src");
  });
});
