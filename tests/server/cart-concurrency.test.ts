import { afterEach, describe, expect, it } from "vitest";
import { cartRepository } from "../../server/store/cart-repository.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { testDatabases } from "../support/databases.ts";
import { shopper } from "../support/shopper.ts";

const contents = "/winkelwagen/inhoud";
const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };
const prints = { product: "classic-prints", orientation: "landscape", size: "15x10" };

/**
 * The cart through HTTP, many requests at once, on every database the shop runs on
 * (SQLite always; PostgreSQL when TEST_DATABASE_URL is set). No add may be lost or
 * counted twice, and the per-line maximum holds however the requests interleave.
 */
describe.each(testDatabases())("the cart under parallel requests on $name", (target) => {
  const shops: TestShop[] = [];
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    for (const s of shops.splice(0)) await s.app.close();
    await cleanup?.();
    cleanup = undefined;
  });

  async function openShops(count: number): Promise<TestShop[]> {
    const opened = await target.open();
    cleanup = opened.cleanup;
    for (let i = 0; i < count; i++) {
      // Only the test closes the database: the shops share it.
      const shop = await testShop({ database: { ...opened.database, close: async () => {} } });
      shops.push(shop);
    }
    return shops;
  }

  it("50 parallel adds on one cart leave exactly the expected quantities", async () => {
    const [shop] = await openShops(1);
    if (!shop) throw new Error("no shop");
    const s = await shopper(shop.app);
    expect((await s.post(contents, { ...book, quantity: "1" })).statusCode).toBe(303);

    // 25 adds of one book each and 25 adds of two prints each, all at the same moment.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 === 0
          ? s.post(contents, { ...book, quantity: "1" })
          : s.post(contents, { ...prints, quantity: "2", from: "cart" }, { ajax: true }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([
      ...Array.from({ length: 25 }, () => 200),
      ...Array.from({ length: 25 }, () => 303),
    ]);
    const cartId = shop.app.unsignCookie(s.cookies.get("cart") ?? "").value ?? "";
    const lines = await cartRepository(shop.database.db).lines(cartId);
    expect(lines.map((l) => [l.productId, l.quantity])).toEqual([
      ["exclusive-photobook", 26],
      ["classic-prints", 50],
    ]);
  });

  it("50 parallel adds that together pass the maximum: exactly as many as fit are taken, the rest refused", async () => {
    const [shop] = await openShops(1);
    if (!shop) throw new Error("no shop");
    const s = await shopper(shop.app);
    expect((await s.post(contents, { ...book, quantity: "3" })).statusCode).toBe(303);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => s.post(contents, { ...book, quantity: "3" })),
    );
    const taken = answers.filter((r) => r.statusCode === 303).length;
    const refused = answers.filter((r) => r.statusCode === 422);
    // 3 + 32 × 3 = 99, the maximum per line.
    expect(taken).toBe(32);
    expect(refused).toHaveLength(18);
    expect(refused[0]?.body).toContain("kun je maximaal 99 stuks bestellen");
    const cartId = shop.app.unsignCookie(s.cookies.get("cart") ?? "").value ?? "";
    expect(await cartRepository(shop.database.db).itemCount(cartId)).toBe(99);
  });

  it("the cart page kept by one instance shows every change, whichever instance made it", async () => {
    const [one, two] = await openShops(2);
    if (!one || !two) throw new Error("no shops");
    const s = await shopper(one.app);
    await s.post(contents, { ...book, quantity: "2" });
    const first = await s.get(contents);
    expect(first.body).toContain('value="2"');
    expect(first.body).toContain("2 artikelen");
    const again = await s.get(contents);
    expect(again.body).toContain('value="2"');

    // The same browser changes the quantity and the address through the other instance.
    const postElsewhere = (url: string, fields: Record<string, string>) =>
      two.app.inject({
        method: "POST",
        url,
        headers: {
          cookie: s.cookie(),
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "same-origin",
        },
        payload: new URLSearchParams({ _csrf: s.token, ...fields }).toString(),
      });
    expect((await postElsewhere(contents, { ...book, quantity: "5", intent: "update" })).statusCode).toBe(
      303,
    );
    const changed = await s.get(contents);
    expect(changed.body).toContain('value="5"');
    expect(changed.body).toContain("5 artikelen");

    const address = {
      name: "Jana Schmidt",
      street: "Hauptstraße 1",
      postcode: "10115",
      city: "Berlin",
      country: "DE",
      email: "jana@example.de",
      phone: "",
    };
    expect((await postElsewhere("/winkelwagen/adres", address)).statusCode).toBe(303);
    expect((await s.get(contents)).body).toContain("Duitsland");

    // Its own token still works on the kept page: the shopper can go on changing the cart.
    expect((await s.post(contents, { ...book, quantity: "1", intent: "update" })).statusCode).toBe(303);
    expect((await s.get(contents)).body).toContain("1 artikel");
  });

  it("while the cart's revision stands, the kept page is what the shopper gets", async () => {
    const [shop] = await openShops(1);
    if (!shop) throw new Error("no shop");
    const s = await shopper(shop.app);
    await s.post(contents, { ...book, quantity: "2" });
    expect((await s.get(contents)).body).toContain('value="2"');
    // Behind the triggers' back (no shop code can do this): the revision is put back.
    const cartId = shop.app.unsignCookie(s.cookies.get("cart") ?? "").value ?? "";
    const db = shop.database.db;
    const { revision } = await db
      .selectFrom("carts")
      .select("revision")
      .where("id", "=", cartId)
      .executeTakeFirstOrThrow();
    // (The count stays: the header's count is part of a kept page's name too.)
    await db
      .updateTable("cart_lines")
      .set({ orientation: "landscape", size_id: "30x21" })
      .where("cart_id", "=", cartId)
      .execute();
    await db.updateTable("carts").set({ revision }).where("id", "=", cartId).execute();
    expect((await s.get(contents)).body).toContain("Staand, 21x30");
    await db
      .updateTable("carts")
      .set({ revision: Number(revision) + 100 })
      .where("id", "=", cartId)
      .execute();
    expect((await s.get(contents)).body).toContain("Liggend, 30x21");
  });

  it("a cart lives in the database, so another instance of the shop serves it and takes its order, and starts its payment, once", async () => {
    const [one, two] = await openShops(2);
    if (!one || !two) throw new Error("no shops");
    const s = await shopper(one.app);
    await s.post(contents, { ...book, quantity: "2" });
    const address = {
      name: "Jan Jansen",
      street: "Kerkstraat 1",
      postcode: "1011 AB",
      city: "Amsterdam",
      country: "NL",
      email: "jan@example.nl",
      phone: "",
    };
    // The same browser, now answered by the other instance.
    const elsewhere = {
      ...s,
      get: (url: string) => two.app.inject({ url, headers: { cookie: s.cookie() } }),
    };
    expect((await elsewhere.get(contents)).body).toContain("Exclusief fotoboek");
    expect((await s.post("/winkelwagen/adres", address)).statusCode).toBe(303);
    const overview = await elsewhere.get("/winkelwagen/overzicht");
    const field = (name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(overview.body)?.[1] ?? "";
    const form = new URLSearchParams({
      _csrf: s.token,
      orderKey: field("orderKey"),
      fingerprint: field("fingerprint"),
    });
    // A double submit that lands on both instances at once.
    const answers = await Promise.all(
      [one, two, one, two].map((shop) =>
        shop.app.inject({
          method: "POST",
          url: "/winkelwagen/overzicht",
          headers: {
            cookie: s.cookie(),
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-site": "same-origin",
          },
          payload: form.toString(),
        }),
      ),
    );
    expect(new Set(answers.map((r) => `${r.statusCode} ${r.headers.location}`)).size).toBe(1);
    expect(answers[0]?.statusCode).toBe(303);
    const db = one.database.db;
    expect(
      await db.selectFrom("orders").selectAll().where("email", "=", "jan@example.nl").execute(),
    ).toHaveLength(1);
    // One order, one payment for it: the confirmation waits for the payment.
    expect(await db.selectFrom("order_payments").selectAll().execute()).toHaveLength(1);
    expect(
      await db.selectFrom("outbox").selectAll().where("to_address", "=", "jan@example.nl").execute(),
    ).toHaveLength(0);
  });
});
