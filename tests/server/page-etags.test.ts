import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";

/**
 * A kept page's ETag comes from what it declares it shows (page-shows.ts) and the release:
 * a browser that still has that version is answered 304 without a rendering, by any
 * instance, and a change to what the page shows gives a new version.
 */
let a: TestShop;
let b: TestShop;
beforeAll(async () => {
  a = await testShop({ sqliteFile: true });
  // A second instance on the same database file, as two processes behind one address.
  const database = openDatabase(`sqlite://${join(a.config.dataDir, "shop.db")}`);
  await migrateToLatest(database);
  b = await testShop({ database });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const cart = "/winkelwagen/inhoud";
const add = (browser: BrowserSession, quantity: string) =>
  browser.form(cart, { product: "exclusive-photobook", orientation: "portrait", size: "21x30", quantity });

describe("a kept page's ETag", () => {
  it("answers 304 to a browser that has the version, on either instance, and 200 once the cart changed", async () => {
    const browser = new BrowserSession(a.app);
    await browser.get("/assortiment/fotoboeken/exclusief-fotoboek");
    expect((await add(browser, "1")).statusCode).toBe(303);
    const first = await browser.get(cart);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);

    const again = await browser.get(cart, { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");

    const other = new BrowserSession(b.app);
    other.adopt(browser);
    expect((await other.get(cart, { "if-none-match": etag })).statusCode).toBe(304);

    // A change through the other instance: a new version, and the page that shows it.
    expect((await add(other, "2")).statusCode).toBe(303);
    const changed = await browser.get(cart, { "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('value="3"');
  });

  it("is the same for two shoppers whose pages show the same, and never a 304 for another version", async () => {
    const product = "/assortiment/fotoboeken/exclusief-fotoboek";
    const anna = new BrowserSession(a.app);
    const ben = new BrowserSession(a.app);
    const annas = await anna.get(product);
    const bens = await ben.get(product);
    expect(annas.headers.etag).toBeDefined();
    expect(bens.headers.etag).toBe(annas.headers.etag);
    expect(bens.body).toBe(annas.body);
    // With something in the cart the header's count differs: another version.
    await add(ben, "1");
    const withCart = await ben.get(product, { "if-none-match": annas.headers.etag as string });
    expect(withCart.statusCode).toBe(200);
    expect(withCart.headers.etag).not.toBe(annas.headers.etag);
  });
});
