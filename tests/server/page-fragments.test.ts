import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";

/**
 * The cart's tips block is rendered once for every cart with the same tips and kept
 * (PageContext.fragment). What a shopper gets from it must be what a fresh rendering, on
 * an instance that kept nothing, gives; and a cart with other tips must never get it.
 */
let shop: TestShop;
let fresh: TestShop;
beforeAll(async () => {
  shop = await testShop();
  fresh = await testShop();
});
afterAll(async () => {
  await shop.close();
  await fresh.close();
});

const tipsOf = (html: string) => {
  const start = html.indexOf('<section class="cart-tips"');
  expect(start).toBeGreaterThan(0);
  return html.slice(start, html.indexOf("</main>"));
};

async function cartWith(
  on: TestShop,
  product: { product: string; orientation: string; size: string },
  browser = new BrowserSession(on.app),
) {
  await browser.get("/assortiment/fotoboeken/exclusief-fotoboek");
  expect((await browser.form("/winkelwagen/inhoud", { ...product, quantity: "1" })).statusCode).toBe(303);
  const page = await browser.get("/winkelwagen/inhoud");
  expect(page.statusCode).toBe(200);
  return page.body;
}

const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };
const canvas = { product: "canvas", orientation: "square", size: "50x50" };

describe("the cart's tips block, kept", () => {
  it("is byte for byte what a fresh rendering on another instance shows", async () => {
    const first = tipsOf(await cartWith(shop, book));
    const second = tipsOf(await cartWith(shop, book));
    const rendered = tipsOf(await cartWith(fresh, book));
    expect(second).toBe(first);
    expect(second).toBe(rendered);
  });

  it("is not what a cart with other tips gets", async () => {
    const withBook = tipsOf(await cartWith(shop, book));
    const withCanvas = tipsOf(await cartWith(shop, canvas));
    expect(withCanvas).toBe(tipsOf(await cartWith(fresh, canvas)));
    expect(withCanvas).not.toBe(withBook);
  });

  it("is rendered afresh for a browser whose forms carry a token of its own", async () => {
    await cartWith(shop, book);
    const old = tipsOf(await cartWith(shop, book, new BrowserSession(shop.app, { fetchMetadata: false })));
    const tokens = [...old.matchAll(/name="_csrf" value="([^"]+)"/g)].map((m) => m[1]);
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(token).not.toMatch(/^shared\./);
  });
});
