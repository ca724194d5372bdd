import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartShown, pageShows, type Source } from "../../server/http/caching/page-shows.ts";
import { cartRepository } from "../../server/store/cart-repository.ts";
import { openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { accountPaths, annasAddress, signedUp } from "../support/accounts.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { startPhotoBook, uploadPhoto } from "../support/photos.ts";
import { recordingTableReads, tablesEachRevisionCovers } from "../support/table-reads.ts";

/**
 * A page of one shopper's own is kept, and sent again, for as long as what it declares it
 * shows (page-shows.ts) is unchanged. So it must read nothing else: a table that no
 * declared revision covers could change under a kept page and nobody would notice. Each
 * page here is rendered fresh while every read is recorded by table, and the tables are
 * checked against the ones the database's own triggers tie to each declared revision.
 */

/**
 * Read on every request, before any route, for who is asking, not for what a page shows:
 * the session (its end raises the account's revision) and whose the cart is.
 */
const readForWhoIsAsking = new Set(["sessions", "accounts", "carts"]);

let shop: TestShop;
let reads: Set<string>;
let covers: Record<string, Set<string>>;
let declared: readonly Source[] | undefined;

beforeAll(async () => {
  const base = openDatabase("sqlite::memory:");
  await migrateToLatest(base);
  const recording = recordingTableReads(base);
  reads = recording.reads;
  covers = await tablesEachRevisionCovers(base);
  const carts = cartRepository(recording.database.db);
  shop = await testShop({
    database: recording.database,
    env: { PAYMENT_PROVIDER: "test", SIGNUP_RATE_LIMIT: "1000" },
    sleep: async () => {},
    beforeReady(app) {
      app.addHook("onResponse", async (_request, reply) => {
        declared = reply.pageSources;
      });
      // A page that declares its cart but also shows something no revision covers.
      app.get("/test/undeclared", async (request, reply) => {
        const cart = await cartShown(carts, request);
        const messages = await recording.database.db.selectFrom("contact_messages").select("id").execute();
        return reply.page(
          "pages/error",
          { title: "Berichten", heading: "Berichten", message: `${messages.length}` },
          { shows: cart && pageShows(cart) },
        );
      });
    },
  });
});
afterAll(() => shop.close());

/** A fresh look at a page: what it read, what it declared, and what of its reads no declaration covers. */
async function look(browser: BrowserSession, url: string) {
  reads.clear();
  declared = undefined;
  const res = await browser.get(url);
  expect(res.statusCode, url).toBe(200);
  const covered = new Set([
    ...readForWhoIsAsking,
    ...(declared ?? []).flatMap((source) => [...(covers[source] ?? [])]),
  ]);
  return {
    declared,
    read: [...reads].sort(),
    undeclared: [...reads].filter((table) => !covered.has(table)).sort(),
  };
}

async function withCart(browser = new BrowserSession(shop.app)) {
  await browser.get("/assortiment/fotoboeken/exclusief-fotoboek");
  const added = await browser.form("/winkelwagen/inhoud", {
    product: "exclusive-photobook",
    orientation: "portrait",
    size: "21x30",
    quantity: "1",
  });
  expect(added.statusCode).toBe(303);
  return browser;
}

describe("pages of a shopper's own read only what they declare", () => {
  it("the cart, its address and overview steps, as a guest", async () => {
    const browser = await withCart();
    expect(await look(browser, "/winkelwagen/inhoud")).toMatchObject({ declared: ["cart"], undeclared: [] });
    expect(await look(browser, "/winkelwagen/adres")).toMatchObject({ declared: ["cart"], undeclared: [] });
    expect((await browser.form("/winkelwagen/adres", annasAddress)).statusCode).toBe(303);
    expect(await look(browser, "/winkelwagen/overzicht")).toMatchObject({
      declared: ["cart", "clock"],
      undeclared: [],
    });
  });

  it("the address step signed in, with the account's addresses", async () => {
    const browser = await withCart(await signedUp(shop.app, shop.database.db, { email: "bram@example.nl" }));
    expect(await look(browser, "/winkelwagen/adres")).toMatchObject({
      declared: ["cart", "account"],
      undeclared: [],
    });
  });

  it("the account's pages", async () => {
    const browser = await signedUp(shop.app, shop.database.db, { email: "carla@example.nl" });
    for (const page of ["account", "orders", "photos", "subscription", "addresses", "privacy"] as const) {
      const seen = await look(browser, accountPaths.nl[page]);
      expect(seen.declared, page).toContain("account");
      expect(seen.undeclared, page).toEqual([]);
    }
  });

  it("the account's subscription page of a subscriber, with its charges and a waiting plan change", async () => {
    const browser = await signedUp(shop.app, shop.database.db, { email: "dirk@example.nl" });
    const account = await shop.database.db
      .selectFrom("accounts")
      .select("id")
      .where("email", "=", "dirk@example.nl")
      .executeTakeFirstOrThrow();
    const day = new Date().toISOString().slice(0, 10);
    await shop.database.db
      .insertInto("subscriptions")
      .values({
        id: "dirks-subscription-0001",
        owner_id: null,
        account_id: account.id,
        plan_id: "premium",
        monthly_cents: 999,
        offer_cents: null,
        offer_months: null,
        locale: "nl",
        country: "NL",
        status: "active",
        paid_from: day,
        paid_until: "2099-01-01",
        started_on: day,
        customer_id: "cst_dirk",
        mandate_id: "mdt_dirk",
        created_at: new Date().toISOString(),
      })
      .execute();
    const seen = await look(browser, accountPaths.nl.subscription);
    expect(seen.read).toEqual(expect.arrayContaining(["subscription_charges", "subscription_plan_changes"]));
    expect(seen.undeclared).toEqual([]);
  });

  it("a photo book's page and the subscription page with the shopper's photos", async () => {
    const browser = new BrowserSession(shop.app);
    const started = await startPhotoBook(browser);
    expect(started.statusCode).toBe(303);
    // The first look shows the photos just added (a notice), which is never kept.
    await browser.get(started.headers.location as string);
    const book = await look(browser, started.headers.location as string);
    expect(book).toMatchObject({ declared: ["shopper", "cart"], undeclared: [] });
    expect((await uploadPhoto(browser)).statusCode).toBeLessThan(300);
    expect(await look(browser, "/abonnement")).toMatchObject({ undeclared: [] });
    expect(declared).toContain("shopper");
  });

  it("and this check finds a page that reads what it does not declare", async () => {
    const browser = await withCart();
    const seen = await look(browser, "/test/undeclared");
    expect(seen.declared).toEqual(["cart"]);
    expect(seen.undeclared).toEqual(["contact_messages"]);
  });
});
