import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storageKeys } from "../../../server/uploads/photo-storage.ts";
import {
  accountPaths,
  annasAddress,
  mainText,
  password,
  placeOrder,
  signedUp,
  signIn,
} from "../../support/accounts.ts";
import { type TestShop, testShop } from "../../support/app.ts";
import { BrowserSession } from "../../support/browser-session.ts";
import { testDatabases } from "../../support/databases.ts";
import { startPhotoBook } from "../../support/photos.ts";

const nl = accountPaths.nl;
const address = { ...annasAddress, phone: "06 12345678" };

describe.each(testDatabases())("an account's data, on $name", (target) => {
  let shop: TestShop;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    shop = await testShop({
      database: opened.database,
      env: { SIGNUP_RATE_LIMIT: "1000" },
      sleep: async () => {},
    });
  });
  afterEach(async () => {
    await shop.app.close();
    await cleanup();
  });

  const db = () => shop.database.db;

  /** Anna: an account with a photo book of one photo, an order placed for it, and an address. */
  async function anna(): Promise<BrowserSession> {
    const browser = await signedUp(shop.app, db(), { email: "anna@example.nl" });
    const started = await startPhotoBook(browser);
    expect(started.statusCode).toBe(303);
    await placeOrder(browser, address, 2);
    return browser;
  }

  it("downloads as one JSON file: account, addresses, orders, subscription and a list of photos, and no secrets", async () => {
    const browser = await anna();
    const res = await browser.get(nl.export);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["content-disposition"]).toBe('attachment; filename="fotohoek-mijn-gegevens.json"');
    const data = JSON.parse(res.body);
    expect(data.account).toMatchObject({ name: "Anna de Vries", email: "anna@example.nl", language: "nl" });
    expect(data.addresses).toEqual([
      expect.objectContaining({ street: "Dorpsstraat 12", phone: "06 12345678" }),
    ]);
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({
      status: "awaiting_payment",
      address: expect.objectContaining({ city: "Utrecht" }),
    });
    expect(data.orders[0].lines[0]).toMatchObject({ productId: "exclusive-photobook", quantity: 2 });
    expect(data.subscription).toBeNull();
    expect(data.photos).toEqual([expect.objectContaining({ name: "strand.jpg", inProject: true })]);
    expect(data.photoProjects).toHaveLength(1);
    expect(res.body).not.toMatch(/scrypt|password|token/i);
    // Nobody else's: without the session there is nothing to download.
    expect((await shop.app.inject({ url: nl.export })).statusCode).toBe(303);
  });

  it("deletes the account, its photos (rows and files) and addresses; its orders stay for the books without who", async () => {
    const browser = await anna();
    const upload = await db().selectFrom("uploads").select("id").executeTakeFirstOrThrow();
    const files = join(shop.config.dataDir, "uploads");
    expect(existsSync(join(files, storageKeys.original(upload.id)))).toBe(true);

    await browser.get(nl.privacy);
    const wrong = await browser.form(nl.delete, { currentPassword: "niet mijn wachtwoord" });
    expect(wrong.statusCode).toBe(422);
    expect(mainText(wrong)).toContain("Dit wachtwoord klopt niet.");
    expect(await db().selectFrom("accounts").selectAll().execute()).toHaveLength(1);

    const deleted = await browser.form(nl.delete, { currentPassword: password });
    expect(deleted.statusCode).toBe(200);
    expect(mainText(deleted)).toContain("Je account is verwijderd");
    expect(await db().selectFrom("accounts").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("sessions").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("addresses").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("uploads").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("photo_projects").selectAll().execute()).toEqual([]);
    expect(existsSync(join(files, storageKeys.original(upload.id)))).toBe(false);
    const [order] = await db().selectFrom("orders").selectAll().execute();
    expect(order).toMatchObject({
      name: "",
      street: "",
      postcode: "",
      city: "",
      email: "",
      phone: null,
      account_id: null,
    });
    expect(order?.status).toBe("cancelled");
    expect(Number(order?.total_cents)).toBeGreaterThan(0);
    const lines = await db().selectFrom("order_lines").selectAll().execute();
    expect(lines.map((l) => [l.product_id, Number(l.quantity)])).toEqual([["exclusive-photobook", 2]]);
    // A goodbye to the address, and nothing to sign in to any more.
    const goodbye = await db()
      .selectFrom("outbox")
      .select("kind")
      .where("to_address", "=", "anna@example.nl")
      .execute();
    expect(goodbye.map((m) => m.kind)).toContain("account-deleted");
    expect((await signIn(shop.app, "anna@example.nl")).res.statusCode).toBe(422);
    expect((await browser.get(nl.account)).statusCode).toBe(303);
  });

  it("waits while an order is paid but not yet shipped: it still needs its address and photos", async () => {
    const browser = await anna();
    await db().updateTable("orders").set({ status: "paid" }).execute();
    await browser.get(nl.privacy);
    const refused = await browser.form(nl.delete, { currentPassword: password });
    expect(refused.statusCode).toBe(409);
    expect(mainText(refused)).toMatch(/Je bestelling \d+ wordt nog gemaakt of verzonden/);
    expect(await db().selectFrom("accounts").selectAll().execute()).toHaveLength(1);
    expect(await db().selectFrom("uploads").selectAll().execute()).toHaveLength(1);
  });
});

describe("the privacy statement", () => {
  it("says what is kept and how long, how to download and delete, in both languages", async () => {
    const shop = await testShop();
    try {
      const nlPage = await new BrowserSession(shop.app).get("/privacy");
      expect(nlPage.statusCode).toBe(200);
      expect(mainText(nlPage)).toContain("Bestellingen ten minste 7 jaar");
      expect(mainText(nlPage)).toContain(
        "download je onder Mijn account > Privacy alles wat we van je bewaren",
      );
      const dePage = await new BrowserSession(shop.app).get("/datenschutz");
      expect(mainText(dePage)).toContain("löschen Ihr Konto");
      expect(nlPage.body).toContain('<a href="/privacy">Privacy</a>');
    } finally {
      await shop.close();
    }
  });
});
