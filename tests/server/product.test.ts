import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  shop.app.inject({ method: "GET", url, headers: { host: "shop.test", ...headers } });

const book = "/assortiment/fotoboeken/exclusief-fotoboek";
const buch = "/sortiment/fotobuecher/exklusives-fotobuch";
const plain = (s: string) => s.replace(/\s/g, " ");

function structuredData(html: string): Record<string, unknown> {
  const json = /<script type="application\/ld\+json">([^<]+)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error("no structured data");
  return JSON.parse(json);
}

describe("category pages", () => {
  it("list a category's products with from-prices and the free-shipping label, in Dutch", async () => {
    const res = await get("/assortiment/fotoboeken");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1 id="category-title">Fotoboeken</h1>');
    expect(res.body).toContain(`href="${book}"`);
    expect(plain(res.body)).toContain("vanaf € 49,99");
    expect(res.body).toContain("+ Gratis verzending");
    expect(res.body).not.toContain("Fotoafdrukken</a></h3>");
  });

  it("list them in German at the German address, with the German shipping label", async () => {
    const res = await get("/sortiment/fotobuecher");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="de"');
    expect(res.body).toContain(`href="${buch}"`);
    expect(res.body).toContain("+ Kostenloser Versand");
    expect(res.body).toContain('hreflang="nl" href="http://localhost:3000/assortiment/fotoboeken"');
  });

  it("leave out the free-shipping label where it does not apply", async () => {
    const res = await get("/assortiment/fotoafdrukken");
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("+ Gratis verzending");
  });

  it("are linked from the main navigation and the home page", async () => {
    const home = await get("/");
    expect(home.body).toMatch(/<nav class="site-nav"[\s\S]*href="\/assortiment\/fotoboeken"/);
    expect(home.body).toMatch(/<h2 id="range-photo-books"><a href="\/assortiment\/fotoboeken">/);
  });

  it("name each card in an h2, the level right below the page's h1", async () => {
    const html = (await get("/assortiment/fotoboeken")).body;
    expect(html).toContain('<h2 class="product-card__name"><a class="product-card__link"');
    expect(html).not.toContain('<h3 class="product-card__name">');
    // On the home page the cards sit under their category's h2.
    expect((await get("/")).body).toContain('<h3 class="product-card__name">');
  });

  it("answer 404 for a category that does not exist, or one in the other language", async () => {
    expect((await get("/assortiment/bestaat-niet")).statusCode).toBe(404);
    expect((await get("/assortiment/fotobuecher")).statusCode).toBe(404);
  });
});

describe("the product page", () => {
  it("shows the recommended option, selected and marked, with its price and production times", async () => {
    const res = await get(book);
    expect(res.statusCode).toBe(200);
    const html = plain(res.body);
    expect(html).toContain('<option value="liggend" selected>Liggend</option>');
    expect(html).toContain('<option value="30x21" selected>30x21 cm (aanbevolen)</option>');
    expect(html).toContain('<span class="badge">Aanbevolen</span>');
    expect(html).toContain("Meest gekozen formaat voor vakantiefoto's".replace("'", "&#39;"));
    expect(html).toContain("<span data-product-price>€ 49,99</span>");
    expect(html).toContain("incl. btw");
    expect(html).toContain("3 tot 5 werkdagen");
    expect(html).toContain("2 tot 4 werkdagen");
    expect(html).toContain("+ Gratis verzending");
  });

  it("offers only the sizes of the chosen orientation", async () => {
    const res = await get(`${book}?orientatie=staand&formaat=21x30`);
    const sizes = /<select[^>]*name="formaat"[^>]*>([\s\S]*?)<\/select>/.exec(res.body)?.[1] ?? "";
    expect([...sizes.matchAll(/value="([^"]+)"/g)].map((m) => m[1])).toEqual(["21x30"]);
  });

  it("renders every combination at its own address, with its price", async () => {
    const res = await get(`${book}?orientatie=liggend&formaat=40x30`);
    expect(res.statusCode).toBe(200);
    expect(plain(res.body)).toContain("<span data-product-price>€ 74,99</span>");
    expect(res.body).toContain(
      '<link rel="canonical" href="http://localhost:3000/assortiment/fotoboeken/exclusief-fotoboek?orientatie=liggend&amp;formaat=40x30">',
    );
    // The language switcher keeps the choice, in the other language's words.
    expect(res.body).toContain(`href="${buch}?ausrichtung=querformat&amp;format=40x30"`);
  });

  it("redirects a combination that does not exist to the nearest one", async () => {
    const res = await get(`${book}?orientatie=staand&formaat=30x21`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${book}?orientatie=staand&formaat=21x30`);
  });

  it("keeps the address's other parameters (a campaign's utm tags) when it redirects", async () => {
    const res = await get(
      `${book}?utm_source=nieuwsbrief&orientatie=staand&formaat=30x21&utm_campaign=lente`,
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(
      `${book}?orientatie=staand&formaat=21x30&utm_source=nieuwsbrief&utm_campaign=lente`,
    );
  });

  it("shows the recommended option with a notice for unknown or malformed options", async () => {
    for (const query of [
      "orientatie=schuin",
      "formaat=999x1",
      "formaat=%3Cscript%3E",
      "formaat=a&formaat=b",
    ]) {
      const res = await get(`${book}?${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.body).toContain("Deze uitvoering kennen we niet.");
      expect(res.body).toContain('<option value="30x21" selected>');
      expect(res.body).not.toContain("<script>");
    }
  });

  it("is in German at the German address", async () => {
    const res = await get(`${buch}?ausrichtung=hochformat&format=21x30`);
    expect(res.statusCode).toBe(200);
    const html = plain(res.body);
    expect(html).toContain('<option value="hochformat" selected>Hochformat</option>');
    expect(html).toContain("<span data-product-price>49,99 €</span>");
    expect(html).toContain("inkl. MwSt.");
    expect(html).toContain("3 bis 5 Werktage");
    expect(html).toContain("In den Einkaufswagen");
  });

  it("says when a size cannot be ordered for now and disables the button", async () => {
    const res = await get("/assortiment/wanddecoratie/foto-op-canvas?orientatie=liggend&formaat=90x60");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("Dit formaat is tijdelijk niet leverbaar.");
    expect(res.body).toMatch(/<button class="button add-to-cart__submit" type="submit" disabled/);
  });

  it("answers 404 for an unknown product and redirects a product under the wrong category", async () => {
    expect((await get("/assortiment/fotoboeken/bestaat-niet")).statusCode).toBe(404);
    expect((await get("/assortiment/fotoboeken/exklusives-fotobuch")).statusCode).toBe(404);
    const moved = await get("/assortiment/fotoafdrukken/exclusief-fotoboek?formaat=40x30");
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(`${book}?formaat=40x30`);
  });

  it("carries schema.org Product data with an offer per option", async () => {
    const data = structuredData((await get(book)).body);
    expect(data).toMatchObject({ "@type": "Product", name: "Exclusief fotoboek" });
    const offers = data.offers as Array<Record<string, string>>;
    expect(offers).toHaveLength(4);
    expect(offers[0]).toMatchObject({ "@type": "Offer", priceCurrency: "EUR", price: "49.99" });
    expect(offers[0]?.url).toBe(`http://localhost:3000${book}?orientatie=liggend&formaat=30x21`);
  });

  it("carries Open Graph tags whose image is the viewer's first frame", async () => {
    const res = await get(book);
    expect(res.body).toContain('<meta property="og:type" content="product">');
    expect(res.body).toContain('<meta property="og:title" content="Exclusief fotoboek">');
    expect(res.body).toMatch(
      /<meta property="og:image" content="http:\/\/localhost:3000\/pages\/productpage\/360\/photobook-exclusive-landscape\/720\/1\.jpg\?v=[\w]+">/,
    );
  });

  it("shows the product image without lazy loading, as the page's first image", async () => {
    const res = await get(book);
    const main = res.body.slice(res.body.indexOf("<main"));
    const first = /<img[^>]*>/.exec(main)?.[0] ?? "";
    expect(first).toContain("/pages/productpage/360/photobook-exclusive-landscape/720/1.jpg");
    expect(first).not.toContain('loading="lazy"');
  });

  it("lets the carousel load related products' images near view, with a copy for shoppers without JavaScript", async () => {
    const html = (await get(book)).body;
    const related = html.slice(html.indexOf('id="related-products"'));
    const cards = [
      ...related.matchAll(/<li class="carousel__slide carousel__slide--product">([\s\S]*?)<\/li>/g),
    ].map((m) => m[1] ?? "");
    expect(cards.length).toBeGreaterThan(2);
    // "Ook leuk" is far below the first screen: even its first card waits, for the lazy-load behaviour (250 px).
    expect(cards[0]).toMatch(
      /<img class="lazy-image product-card__image" src="data:[^"]+" data-lazy-src="\/static\/images\/[^"]+"/,
    );
    for (const card of cards.slice(1)) {
      expect(card).toMatch(
        /<img class="lazy-image product-card__image" src="data:[^"]+" data-carousel-src="\/static\/images\/[^"]+"/,
      );
    }
    for (const card of cards) {
      expect(card).toMatch(
        /<noscript><img class="product-card__image" src="\/static\/images\/[^"]+"[^>]* loading="lazy"/,
      );
    }
  });

  it("has plain share links for Facebook, Twitter, WhatsApp and email", async () => {
    const html = (await get(book)).body;
    for (const label of ["Deel via Facebook", "Deel via Twitter", "Deel via WhatsApp", "Deel via e-mail"]) {
      expect(html).toContain(label);
    }
  });
});

/** Loads the product page as a browser would: its cookies and the form's token. */
async function session(url = book) {
  const res = await shop.app.inject({ url });
  const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? "";
  return { cookie, token };
}

async function addToCart(fields: Record<string, string>, options: { ajax?: boolean; cookie?: string } = {}) {
  const { cookie, token } = await session();
  return shop.app.inject({
    method: "POST",
    url: "/winkelwagen/inhoud",
    headers: {
      cookie: [cookie, options.cookie].filter(Boolean).join("; "),
      "content-type": "application/x-www-form-urlencoded",
      // As a current browser says of a post from the shop's own page.
      "sec-fetch-site": "same-origin",
      ...(options.ajax ? { "x-requested-with": "XMLHttpRequest" } : {}),
    },
    payload: new URLSearchParams({ ...fields, _csrf: token }).toString(),
  });
}

const good = { product: "exclusive-photobook", orientation: "portrait", size: "21x30", quantity: "2" };

describe("adding to the cart", () => {
  it("without JavaScript: stores the line in a new cart and shows the cart", async () => {
    const res = await addToCart(good);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/winkelwagen/inhoud");
    const cart = res.cookies.find((c) => c.name === "cart");
    expect(cart?.httpOnly).toBe(true);
    const page = await shop.app.inject({
      url: "/winkelwagen/inhoud",
      headers: { cookie: `cart=${cart?.value}` },
    });
    expect(page.body).toContain("Exclusief fotoboek");
    expect(page.body).toContain("2 artikelen");
  });

  it("adds to the same cart on a second post", async () => {
    const first = await addToCart(good);
    const cart = first.cookies.find((c) => c.name === "cart");
    const second = await addToCart({ ...good, quantity: "1" }, { cookie: `cart=${cart?.value}` });
    expect(second.statusCode).toBe(303);
    // The cookie is renewed with the same cart, never swapped for a new one.
    expect(second.cookies.find((c) => c.name === "cart")?.value).toBe(cart?.value);
    const page = await shop.app.inject({
      url: "/winkelwagen/inhoud",
      headers: { cookie: `cart=${cart?.value}` },
    });
    expect(page.body).toContain("3 artikelen");
  });

  it("with JavaScript: answers with the confirmation and the new count, not a redirect", async () => {
    const res = await addToCart(good, { ajax: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers.vary).toMatch(/X-Requested-With/i);
    expect(res.body).not.toContain("<html");
    expect(res.body).toContain("Exclusief fotoboek (Staand, 21x30 cm) is toegevoegd aan je winkelwagen.");
    expect(res.body).toMatch(/data-island="cart-count" data-count="2"/);
  });

  it("refuses a bad quantity with a message, keeping what was typed", async () => {
    for (const quantity of ["0", "100", "1,5", "twee", ""]) {
      const res = await addToCart({ ...good, quantity });
      expect(res.statusCode, quantity).toBe(422);
      expect(res.body).toContain(quantity === "" ? "Dit is een verplicht veld." : "Vul hier");
      expect(res.body).toContain(`value="${quantity}"`);
      expect(res.cookies.find((c) => c.name === "cart")).toBeUndefined();
    }
  });

  it("refuses a size that cannot be ordered for now", async () => {
    const res = await addToCart({
      product: "canvas",
      orientation: "landscape",
      size: "90x60",
      quantity: "1",
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("Dit formaat is tijdelijk niet leverbaar.");
  });

  it("shows the product page again for an option that does not exist", async () => {
    const res = await addToCart({ ...good, size: "99x99" });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("Deze uitvoering kennen we niet.");
  });

  it("shows the cart with a clear message for a product that does not exist", async () => {
    const res = await addToCart({ ...good, product: "nope" });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("Dit product kennen we niet (meer). Je winkelwagen is niet veranderd.");
    expect(res.cookies.find((c) => c.name === "cart")).toBeUndefined();
  });

  it("with JavaScript, puts the same message where the form was for a product that does not exist", async () => {
    const res = await addToCart({ ...good, product: "nope" }, { ajax: true });
    expect(res.statusCode).toBe(422);
    expect(res.headers["x-ajax-fragment"]).toBe("true");
    expect(res.body).not.toContain("<html");
    expect(res.body).toContain(
      '<p class="notice" role="alert">Dit product kennen we niet (meer). Je winkelwagen is niet veranderd.</p>',
    );
    expect(res.body).toContain('href="/winkelwagen/inhoud"');
    expect(res.cookies.find((c) => c.name === "cart")).toBeUndefined();
  });

  it("refuses a post without the form's token", async () => {
    const res = await shop.app.inject({
      method: "POST",
      url: "/winkelwagen/inhoud",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(good).toString(),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("the product page from the page cache", () => {
  it("never hands a request's foreign Host to the next shopper's links", async () => {
    // A shop of its own, so that the foreign request is the one that fills the cache.
    const fresh = await testShop();
    try {
      const visit = (host: string) => fresh.app.inject({ url: book, headers: { host } });
      expect((await visit("evil.example")).statusCode).toBe(200);
      const normal = (await visit("shop.test")).body;
      expect(normal).not.toContain("evil.example");
      expect(normal).toContain(
        '<link rel="canonical" href="http://localhost:3000/assortiment/fotoboeken/exclusief-fotoboek">',
      );
      const choice = `http://localhost:3000${book}?orientatie=liggend&amp;formaat=30x21`;
      expect(normal).toContain(`<meta property="og:url" content="${choice}">`);
      expect(normal).toContain(`data-share-url="${choice}"`);
      expect(structuredData(normal).offers).toContainEqual(
        expect.objectContaining({ url: `http://localhost:3000${book}?orientatie=liggend&formaat=30x21` }),
      );
    } finally {
      await fresh.close();
    }
  });

  it("does not take a Host header that is no plain host name into its links", async () => {
    const res = await get(book, { host: 'evil.example/"><b>x' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("evil.example");
    expect(res.body).toContain('<link rel="canonical" href="http://localhost:');
  });

  it("shows today's dispatch dates again once the order cut-off has passed", async () => {
    // Tuesday 15 April 2025, 10:00 in Amsterdam; the shop's cut-off is 15:00.
    let clock = new Date("2025-04-15T08:00:00Z");
    const timed = await testShop({ now: () => clock });
    try {
      const page = async () =>
        plain((await timed.app.inject({ url: book, headers: { host: "shop.test" } })).body);
      expect(await page()).toContain("Bij bestelling vandaag vóór 15:00 uur.");
      // 16:00: the cached copy (30 seconds) would still say "vandaag".
      clock = new Date("2025-04-15T14:00:00Z");
      expect(await page()).toContain("Bij bestelling morgen vóór 15:00 uur.");
      // Past midnight, Wednesday 00:30: "morgen" is now Thursday, and today's cut-off applies again.
      clock = new Date("2025-04-15T22:30:00Z");
      expect(await page()).toContain("Bij bestelling vandaag vóór 15:00 uur.");
    } finally {
      await timed.close();
    }
  });
});
