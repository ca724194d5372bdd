import { afterEach, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

let shop: TestShop | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

describe("GET /healthz", () => {
  it("reports ok when the database answers", async () => {
    shop = await testShop();
    const res = await shop.app.inject({ url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", database: "sqlite" });
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("reports 503 when the database is gone, and pages still render", async () => {
    shop = await testShop();
    await shop.database.close();
    const res = await shop.app.inject({ url: "/healthz" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: "unavailable", database: "sqlite" });
    expect((await shop.app.inject({ url: "/" })).statusCode).toBe(200);
  });
});
