import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { accountPaths, annasAddress, signedUp } from "../support/accounts.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { recordingTableReads } from "../support/table-reads.ts";

/**
 * The header's cart count is asked of the database once per page at most, and not at all
 * by a cart page, which adds up the lines it reads anyway. On PostgreSQL every ask is a
 * round trip of its own (docs/performance.md).
 */

let shop: TestShop;
let queriesOf: Map<string, number>;

beforeAll(async () => {
  const base = openDatabase("sqlite::memory:");
  await migrateToLatest(base);
  const recording = recordingTableReads(base);
  queriesOf = recording.queriesOf;
  shop = await testShop({
    database: recording.database,
    env: { SIGNUP_RATE_LIMIT: "1000" },
    sleep: async () => {},
  });
});
afterAll(() => shop.close());

const photoBook = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };

async function add(browser: BrowserSession, quantity: number) {
  await browser.get("/assortiment/fotoboeken/exclusief-fotoboek");
  const added = await browser.form("/winkelwagen/inhoud", { ...photoBook, quantity: String(quantity) });
  expect(added.statusCode).toBe(303);
}

/** A fresh look at a page (nothing kept for it yet): its header's count and how often each table was asked. */
async function look(browser: BrowserSession, url: string) {
  queriesOf.clear();
  const res = await browser.get(url);
  expect(res.statusCode, url).toBe(200);
  const count = /data-island="cart-count" data-count="(\d+)"/.exec(res.body)?.[1];
  return { count: Number(count), cartLineQueries: queriesOf.get("cart_lines") ?? 0 };
}

describe("the header's cart count", () => {
  it("comes from the lines each cart step reads: one query of the cart's lines per page", async () => {
    const browser = new BrowserSession(shop.app);
    await add(browser, 3);
    expect(await look(browser, "/winkelwagen/inhoud")).toEqual({ count: 3, cartLineQueries: 1 });
    expect(await look(browser, "/winkelwagen/adres")).toEqual({ count: 3, cartLineQueries: 1 });
    expect((await browser.form("/winkelwagen/adres", annasAddress)).statusCode).toBe(303);
    expect(await look(browser, "/winkelwagen/overzicht")).toEqual({ count: 3, cartLineQueries: 1 });
  });

  it("is asked once on a signed-in page that declares it", async () => {
    const browser = await signedUp(shop.app, shop.database.db, { email: "henk@example.nl" });
    await add(browser, 2);
    expect(await look(browser, accountPaths.nl.subscription)).toEqual({ count: 2, cartLineQueries: 1 });
  });

  it("after a change, counts what the cart holds now, on the page and in the answer to the change", async () => {
    const browser = new BrowserSession(shop.app);
    await add(browser, 1);
    expect((await look(browser, "/winkelwagen/inhoud")).count).toBe(1);
    const changed = await browser.form(
      "/winkelwagen/inhoud",
      { ...photoBook, quantity: "5", intent: "update" },
      { "x-requested-with": "XMLHttpRequest" },
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('data-count="5"');
    expect((await look(browser, "/winkelwagen/inhoud")).count).toBe(5);
    await add(browser, 2);
    expect(await look(browser, "/winkelwagen/adres")).toEqual({ count: 7, cartLineQueries: 1 });
  });
});
