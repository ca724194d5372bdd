import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const images = (html: string) => html.match(/<img\b[^>]*>/g) ?? [];
const urgent = (html: string) => images(html).filter((img) => /\bfetchpriority="high"/.test(img));

describe("the page's largest image, fetched first", () => {
  it.each([
    ["home", "/"],
    ["category", "/assortiment/fotoboeken"],
    ["product", "/assortiment/fotoboeken/exclusief-fotoboek"],
    ["German category", "/sortiment/fotobuecher"],
  ])("the %s page marks exactly one image fetchpriority=high: its first, eager one", async (_name, url) => {
    const res = await shop.app.inject({ url });
    expect(res.statusCode).toBe(200);
    const marked = urgent(res.body);
    expect(marked).toHaveLength(1);
    expect(marked[0]).not.toMatch(/loading="lazy"|data-lazy-src|lazy-image/);
    // The first image after the header: the one at the top of the page's content.
    const content = res.body.slice(res.body.indexOf('<main id="main"'));
    expect(images(content)[0]).toBe(marked[0]);
  });

  it.each([
    ["the cart", "/winkelwagen/inhoud"],
    ["customer service", "/klantenservice"],
    ["delivery times", "/klantenservice/levertijden"],
    ["the search page", "/klantenservice/zoeken"],
  ])("%s, with no large image at the top, marks none", async (_name, url) => {
    const res = await shop.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(urgent(res.body)).toEqual([]);
  });
});
