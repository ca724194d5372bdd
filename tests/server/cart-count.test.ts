import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";
import { testDatabases } from "../support/databases.ts";
import { shopper } from "../support/shopper.ts";

describe.each(testDatabases())("the cart count for a restored page, on $name", (target) => {
  let shop: TestShop;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    shop = await testShop({ database: opened.database });
  });
  afterAll(async () => {
    await shop.close();
    await cleanup();
  });

  it("is this browser's cart's item count, never kept by a cache", async () => {
    const s = await shopper(shop.app);
    const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30", quantity: "2" };
    expect((await s.post("/winkelwagen/inhoud", book)).statusCode).toBe(303);
    const res = await s.get("/api/cart-count");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 2 });
    expect(res.headers["cache-control"]).toBe("no-store");
    expect((await s.post("/winkelwagen/inhoud", { ...book, quantity: "1" })).statusCode).toBe(303);
    expect((await s.get("/api/cart-count")).json()).toEqual({ count: 3 });
  });

  it("is 0 for a browser without a cart, or with a forged cart cookie", async () => {
    expect((await shop.app.inject({ url: "/api/cart-count" })).json()).toEqual({ count: 0 });
    const forged = await shop.app.inject({ url: "/api/cart-count", headers: { cookie: "cart=not-signed" } });
    expect(forged.json()).toEqual({ count: 0 });
  });
});
