import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

/**
 * On a phone the product page's CSS shows the name and the price above the image, though
 * the image comes first in the source. A browser paints as soon as it has parsed part of a
 * page: a first paint before the price had arrived put the image where the price goes, and
 * pushed it down when the price came (Lighthouse: CLS 0.09, in one run of two). The page
 * tells the browser to wait for the price block before its first paint.
 */
let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const awaited = (html: string) =>
  [...html.matchAll(/<link rel="expect" href="#([\w-]+)" blocking="render">/g)].map((m) => m[1]);

describe("the first paint waits for what the first screen shows out of source order", () => {
  it.each([
    ["Dutch", "/assortiment/fotoboeken/exclusief-fotoboek"],
    ["German", "/sortiment/fotobuecher/exklusives-fotobuch"],
  ])("the %s product page waits for its price block, which comes after the image", async (_name, url) => {
    const res = await shop.app.inject({ url });
    expect(res.statusCode).toBe(200);
    const [id] = awaited(res.body);
    expect(id).toBeDefined();
    expect(awaited(res.body)).toHaveLength(1);
    // In the head, so the browser knows before it first paints.
    expect(res.body.indexOf(`href="#${id}"`)).toBeLessThan(res.body.indexOf("</head>"));
    const block = res.body.indexOf(`id="${id}"`);
    expect(block, "the element it waits for is on the page").toBeGreaterThan(0);
    expect(res.body.slice(block - 200, block + 200)).toMatch(/data-product-price/);
    expect(block).toBeGreaterThan(res.body.indexOf('class="viewer360__image"'));
  });

  it.each([
    ["home", "/"],
    ["category", "/assortiment/fotoboeken"],
    ["cart", "/winkelwagen/inhoud"],
  ])("the %s page, shown in source order, paints without waiting", async (_name, url) => {
    const res = await shop.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(awaited(res.body)).toEqual([]);
  });
});
