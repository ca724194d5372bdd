import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

/**
 * Without JavaScript, Back, Forward, a reload or a shared link bring a shopper's choices
 * back only when the address carries them: the product's option as the query of its GET
 * form, a subscription tab as the address's fragment. And the add-to-cart bar, which only
 * JavaScript shows, stays out of such a shopper's way.
 */
let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const get = (url: string) => shop.app.inject({ method: "GET", url, headers: { host: "shop.test" } });
const plain = (s: string) => s.replace(/\s+/g, " ");
const book = "/assortiment/fotoboeken/exclusief-fotoboek";
const buch = "/sortiment/fotobuecher/exklusives-fotobuch";

/** The options form's action, method and the names and chosen values of its selects. */
function optionsForm(html: string) {
  const form = /<form class="product-options" method="(\w+)" action="([^"]+)"[\s\S]*?<\/form>/.exec(html);
  if (!form) throw new Error("no options form");
  const selects = [...form[0].matchAll(/<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)].map((m) => [
    m[1],
    /<option value="([^"]+)" selected>/.exec(m[2] ?? "")?.[1],
  ]);
  return { method: form[1], action: form[2], selects, markup: form[0] };
}

describe("the product's option, without JavaScript", () => {
  it("is chosen with a GET form whose fields are the address's own parameters", async () => {
    const { method, action, selects } = optionsForm((await get(book)).body);
    expect(method).toBe("get");
    expect(action).toBe(book);
    expect(selects).toEqual([
      ["orientatie", "liggend"],
      ["formaat", "30x21"],
    ]);
  });

  it("comes back from the address that form leads to: selects, price and the cart's fields", async () => {
    const res = await get(`${book}?orientatie=staand&formaat=21x30`);
    expect(res.statusCode).toBe(200);
    const html = plain(res.body);
    expect(optionsForm(res.body).selects).toEqual([
      ["orientatie", "staand"],
      ["formaat", "21x30"],
    ]);
    expect(html).toContain(
      '<input type="hidden" name="orientation" value="portrait" data-product-field="orientation">',
    );
    expect(html).toContain('<input type="hidden" name="size" value="21x30" data-product-field="size">');
    expect(html).toContain("<title>Exclusief fotoboek – Staand, 21x30 cm");
  });

  it("does the same at the German address, with the German parameters", async () => {
    const res = await get(`${buch}?ausrichtung=hochformat&format=21x30`);
    const { action, selects } = optionsForm(res.body);
    expect(action).toBe(buch);
    expect(selects).toEqual([
      ["ausrichtung", "hochformat"],
      ["format", "21x30"],
    ]);
  });

  it("is not overridden by what a browser remembers in the selects: the address decides", async () => {
    const { markup } = optionsForm((await get(book)).body);
    expect(markup.match(/<select[^>]*autocomplete="off"/g)).toHaveLength(2);
  });
});

describe("the subscription page's tab, without JavaScript", () => {
  it("is a fragment of the address, in Dutch and in German", async () => {
    for (const [url, id] of [
      ["/abonnement", "uploads"],
      ["/abo", "uploads"],
    ] as const) {
      const html = (await get(url)).body;
      expect(html).toContain(`<li><a href="#${id}">`);
      expect(html).toContain(`<section class="tabs__section" id="${id}"`);
    }
  });
});

describe("the add-to-cart bar's markup", () => {
  const bar = (html: string) => {
    const found = /<section class="add-to-cart-bar"[\s\S]*?<\/section>/.exec(html)?.[0];
    if (!found) throw new Error("no add-to-cart bar");
    return plain(found);
  };

  it("is hidden until its island runs, names its region and submits the add-to-cart form", async () => {
    const html = (await get(book)).body;
    const markup = bar(html);
    expect(markup).toMatch(
      /^<section class="add-to-cart-bar" data-island="add-to-cart-bar" aria-label="Snel bestellen" hidden>/,
    );
    expect(markup).toContain(
      '<span class="add-to-cart-bar__choice" data-bar-choice>Liggend, 30x21 cm</span>',
    );
    expect(markup).toContain("<span data-bar-price>€ 49,99</span>");
    expect(markup).toMatch(
      /type="submit" form="add-to-cart-form" data-bar-submit data-analytics="cart.add" data-analytics-product-id="[^"]+">In winkelwagen<\/button>/,
    );
    expect(html).toContain('<form class="form add-to-cart" id="add-to-cart-form" method="post"');
    expect(html.match(/id="add-to-cart-form"/g)).toHaveLength(1);
    // The form's region is the element the bar watches.
    expect(markup).toContain('"watch":"add-to-cart"');
    expect(html).toContain('<div id="add-to-cart" class="add-to-cart-region">');
  });

  it("follows the option in the address, and its button is disabled where the form's is", async () => {
    const markup = bar(
      (await get("/assortiment/wanddecoratie/foto-op-canvas?orientatie=liggend&formaat=90x60")).body,
    );
    expect(markup).toContain("Liggend, 90x60 cm");
    expect(markup).toContain('form="add-to-cart-form" disabled data-bar-submit ');
  });

  it("speaks German on the German page", async () => {
    const markup = bar((await get(buch)).body);
    expect(markup).toContain('aria-label="Schnell bestellen"');
    expect(markup).toContain(">In den Einkaufswagen</button>");
  });
});
