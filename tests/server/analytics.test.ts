import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const batch = (events: unknown[], extra: Record<string, unknown> = {}) => ({
  route: "home",
  locale: "nl",
  events,
  ...extra,
});

const send = (body: unknown, headers: Record<string, string> = {}, ip = "10.0.0.1") =>
  shop.app.inject({
    method: "POST",
    url: "/analytics/events",
    remoteAddress: ip,
    headers: { "content-type": "application/json", "sec-fetch-site": "same-origin", ...headers },
    payload: typeof body === "string" ? body : JSON.stringify(body),
  });

const stored = () => shop.database.db.selectFrom("analytics_events").selectAll().orderBy("id").execute();

describe("the click-analytics endpoint", () => {
  it("stores a batch of events with route, locale and properties, and no personal data", async () => {
    const res = await send(
      batch([
        { event: "share.whatsapp", properties: { productId: "canvas", position: 2 } },
        { event: "nav.home", properties: {} },
      ]),
      { "user-agent": "Mozilla/5.0 secret", cookie: "cart=abc" },
    );
    expect(res.statusCode).toBe(204);
    const rows = await stored();
    expect(rows.slice(-2)).toMatchObject([
      {
        event: "share.whatsapp",
        route_id: "home",
        locale: "nl",
        properties: '{"productId":"canvas","position":2}',
      },
      { event: "nav.home", route_id: "home", locale: "nl", properties: "{}" },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/Mozilla|10\.0\.0\.1|cart=/);
  });

  it("accepts what sendBeacon sends as text/plain", async () => {
    const res = await send(JSON.stringify(batch([{ event: "plain", properties: {} }])), {
      "content-type": "text/plain;charset=UTF-8",
    });
    expect(res.statusCode).toBe(204);
  });

  it.each([
    ["not JSON", "{events:"],
    ["no events", batch([])],
    ["an unknown route", batch([{ event: "x", properties: {} }], { route: "../etc" })],
    ["an unknown locale", batch([{ event: "x", properties: {} }], { locale: "fr" })],
    ["a bad event name", batch([{ event: "Robert'); DROP TABLE", properties: {} }])],
    ["a nested property", batch([{ event: "x", properties: { a: { b: 1 } } }])],
    ["too long a value", batch([{ event: "x", properties: { note: "x".repeat(101) } }])],
    [
      "too many properties",
      batch([{ event: "x", properties: Object.fromEntries([...Array(11)].map((_, i) => [`p${i}`, i])) }]),
    ],
    ["too many events", batch([...Array(21)].map(() => ({ event: "x", properties: {} })))],
  ])("rejects a batch with %s as 400", async (_what, body) => {
    const before = (await stored()).length;
    const res = await send(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty("error");
    expect((await stored()).length).toBe(before);
  });

  it("rejects an oversized payload as 400", async () => {
    const res = await send(batch([{ event: "x", properties: { a: "y".repeat(9000) } }]));
    expect(res.statusCode).toBe(400);
  });

  it("rejects beacons from other sites", async () => {
    const res = await send(batch([{ event: "x", properties: {} }]), { "sec-fetch-site": "cross-site" });
    expect(res.statusCode).toBe(400);
    const byOrigin = await send(batch([{ event: "x", properties: {} }]), {
      "sec-fetch-site": "",
      origin: "https://evil.example",
    });
    expect(byOrigin.statusCode).toBe(400);
  });

  it("limits how often one client may send, with 429", async () => {
    const body = batch([{ event: "x", properties: {} }]);
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await send(body, {}, "10.9.9.9")).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 204)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await send(body, {}, "10.9.9.10")).statusCode).toBe(204);
  });
});
