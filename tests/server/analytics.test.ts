import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { analyticsCatalogue } from "../../server/domain/analytics-catalogue.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { shopper } from "../support/shopper.ts";

let shop: TestShop;
/** Answers of product pages that ran through Fastify's sending; a ready answer skips it. */
let productPagesRendered = 0;
const day = "2026-11-20";
beforeAll(async () => {
  shop = await testShop({
    now: () => new Date(`${day}T10:00:00Z`),
    beforeReady: (app: FastifyInstance) =>
      app.addHook("onSend", (request, _reply, payload, done) => {
        if (request.url.startsWith("/assortiment/fotoboeken/exclusief-fotoboek")) productPagesRendered++;
        done(null, payload);
      }),
  });
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

describe("the analytics endpoint", () => {
  it("stores a batch of catalogue events with route, locale and properties, and no personal data", async () => {
    const res = await send(
      batch([
        { event: "share", properties: { network: "whatsapp" } },
        { event: "product_card.click", properties: { productId: "canvas", list: "home", position: 2 } },
        { event: "cart.remove", properties: {} },
      ]),
      { "user-agent": "Mozilla/5.0 secret", cookie: "cart=abc" },
    );
    expect(res.statusCode).toBe(204);
    const rows = await stored();
    expect(rows.slice(-3)).toMatchObject([
      { event: "share", route_id: "home", locale: "nl", properties: '{"network":"whatsapp"}' },
      {
        event: "product_card.click",
        route_id: "home",
        locale: "nl",
        properties: '{"productId":"canvas","list":"home","position":2}',
      },
      { event: "cart.remove", properties: "{}" },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/Mozilla|10\.0\.0\.1|cart=/);
  });

  it("accepts every catalogue event with all its properties", async () => {
    const events = Object.entries(analyticsCatalogue).map(([event, properties]) => ({
      event,
      properties: Object.fromEntries(properties.map((p) => [p, "x"])),
    }));
    for (let i = 0; i < events.length; i += 20) {
      expect((await send(batch(events.slice(i, i + 20)))).statusCode).toBe(204);
    }
  });

  it("accepts what sendBeacon sends as text/plain", async () => {
    const res = await send(JSON.stringify(batch([{ event: "share", properties: {} }])), {
      "content-type": "text/plain;charset=UTF-8",
    });
    expect(res.statusCode).toBe(204);
  });

  it.each([
    ["not JSON", "{events:"],
    ["no events", batch([])],
    ["an unknown route", batch([{ event: "share", properties: {} }], { route: "../etc" })],
    ["an unknown locale", batch([{ event: "share", properties: {} }], { locale: "fr" })],
    ["a name outside the catalogue", batch([{ event: "add-to-cart", properties: {} }])],
    ["a name of the server's own funnel", batch([{ event: "funnel.order_placed", properties: {} }])],
    ["a bad event name", batch([{ event: "Robert'); DROP TABLE", properties: {} }])],
    ["a property the event does not list", batch([{ event: "share", properties: { email: "a@b.nl" } }])],
    [
      "one good and one bad event",
      batch([
        { event: "share", properties: { network: "x" } },
        { event: "cart.remove", properties: { productId: "canvas", position: 1 } },
      ]),
    ],
    ["a nested property", batch([{ event: "share", properties: { network: { b: 1 } } }])],
    ["too long a value", batch([{ event: "share", properties: { network: "x".repeat(101) } }])],
    ["too many events", batch([...Array(21)].map(() => ({ event: "share", properties: {} })))],
  ])("rejects a batch with %s as 400, storing nothing", async (_what, body) => {
    const before = (await stored()).length;
    const res = await send(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty("error");
    expect((await stored()).length).toBe(before);
  });

  it("rejects an oversized payload as 400", async () => {
    const res = await send(batch([{ event: "share", properties: { network: "y".repeat(9000) } }]));
    expect(res.statusCode).toBe(400);
  });

  it("rejects beacons from other sites", async () => {
    const res = await send(batch([{ event: "share", properties: {} }]), { "sec-fetch-site": "cross-site" });
    expect(res.statusCode).toBe(400);
    const byOrigin = await send(batch([{ event: "share", properties: {} }]), {
      "sec-fetch-site": "",
      origin: "https://evil.example",
    });
    expect(byOrigin.statusCode).toBe(400);
  });

  it("limits how often one client may send, with 429", async () => {
    const body = batch([{ event: "share", properties: {} }]);
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await send(body, {}, "10.9.9.9")).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 204)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await send(body, {}, "10.9.9.10")).statusCode).toBe(204);
  });
});

/** The daily counters as written, after a flush: "event locale product" -> count. */
async function counted(): Promise<Record<string, number>> {
  await shop.app.analyticsCounters.flush();
  const rows = await shop.database.db
    .selectFrom("analytics_daily")
    .selectAll()
    .where("day", "=", day)
    .execute();
  return Object.fromEntries(
    rows.map((r) => [`${r.event} ${r.locale} ${r.product_id}`.trim(), Number(r.count)]),
  );
}

/** How much each counter grew while `act` ran. */
async function growth(act: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await counted();
  await act();
  const after = await counted();
  const grown: Record<string, number> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value !== (before[key] ?? 0)) grown[key] = value - (before[key] ?? 0);
  }
  return grown;
}

const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };
const anna = {
  name: "Anna de Vries",
  street: "Dorpsstraat 12",
  postcode: "1234ab",
  city: "Utrecht",
  country: "NL",
  email: "anna@example.nl",
  phone: "06 12345678",
};

describe("the funnel, counted by the server", () => {
  it("counts a product page view per day, language and product, and nothing personal", async () => {
    const grown = await growth(async () => {
      expect((await shop.app.inject({ url: "/assortiment/fotoboeken/exclusief-fotoboek" })).statusCode).toBe(
        200,
      );
      expect((await shop.app.inject({ url: "/sortiment/fotobuecher/exklusives-fotobuch" })).statusCode).toBe(
        200,
      );
    });
    expect(grown).toEqual({
      "funnel.product_page nl exclusive-photobook": 1,
      "funnel.product_page de exclusive-photobook": 1,
    });
    const row = await shop.database.db.selectFrom("analytics_daily").selectAll().executeTakeFirstOrThrow();
    const columns = Object.keys(row).sort();
    expect(columns).toEqual(["count", "day", "event", "locale", "product_id"]);
  });

  it("counts nothing for a redirect, a missing product, an ajax fragment or a HEAD request", async () => {
    const grown = await growth(async () => {
      // An old category in the address: 301 to the product's home.
      expect((await shop.app.inject({ url: "/assortiment/canvas/exclusief-fotoboek" })).statusCode).toBe(301);
      expect((await shop.app.inject({ url: "/assortiment/fotoboeken/bestaat-niet" })).statusCode).toBe(404);
      const fragment = await shop.app.inject({
        url: "/assortiment/fotoboeken/exclusief-fotoboek",
        headers: { "x-requested-with": "XMLHttpRequest" },
      });
      expect(fragment.statusCode).toBe(200);
      expect(
        (await shop.app.inject({ method: "HEAD", url: "/assortiment/fotoboeken/exclusief-fotoboek" }))
          .statusCode,
      ).toBe(200);
    });
    expect(grown).toEqual({});
  });

  describe("with pages sent as ready answers", () => {
    // A frozen clock: the answers kept for a second stay ready for the whole test.
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it("counts every view of a product page, also one sent from the cache", async () => {
      const visitor = { "accept-encoding": "gzip" };
      const url = "/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&formaat=21x30";
      const rendered = productPagesRendered;
      const grown = await growth(async () => {
        for (let i = 0; i < 3; i++) {
          const res = await shop.app.inject({ url, headers: visitor });
          expect(res.statusCode).toBe(200);
          expect(res.headers["content-encoding"]).toBe("gzip");
        }
      });
      // Rendered once; the other two were ready answers, which skip the route and its hooks.
      expect(productPagesRendered - rendered).toBe(1);
      expect(grown).toEqual({ "funnel.product_page nl exclusive-photobook": 3 });
    });
  });

  it("counts a successful add to cart (with or without JavaScript), the address and overview views and a placed order", async () => {
    const s = await shopper(shop.app);
    const toCart = await growth(async () => {
      expect((await s.post("/winkelwagen/inhoud", { ...book, quantity: "2" })).statusCode).toBe(303);
      expect(
        (await s.post("/winkelwagen/inhoud", { ...book, quantity: "1" }, { ajax: true })).statusCode,
      ).toBe(200);
      // Refused: no such size. Not counted.
      expect(
        (await s.post("/winkelwagen/inhoud", { ...book, size: "99x99", quantity: "1" })).statusCode,
      ).toBe(422);
    });
    expect(toCart).toEqual({ "funnel.cart_add nl exclusive-photobook": 2 });

    const toAddress = await growth(async () => {
      expect((await s.get("/winkelwagen/adres")).statusCode).toBe(200);
      // A refused address shows the page again with 422: no second view.
      expect((await s.post("/winkelwagen/adres", { ...anna, postcode: "" })).statusCode).toBe(422);
      expect((await s.post("/winkelwagen/adres", anna)).statusCode).toBe(303);
    });
    expect(toAddress).toEqual({ "funnel.address nl": 1 });

    let overview = "";
    const toOverview = await growth(async () => {
      const res = await s.get("/winkelwagen/overzicht");
      expect(res.statusCode).toBe(200);
      overview = res.body;
    });
    expect(toOverview).toEqual({ "funnel.overview nl": 1 });

    const form = { orderKey: field(overview, "orderKey"), fingerprint: field(overview, "fingerprint") };
    const placed = await growth(async () => {
      expect((await s.post("/winkelwagen/overzicht", form)).statusCode).toBe(303);
      // The same form posted again finds the same order: one order, counted once.
      expect((await s.post("/winkelwagen/overzicht", form)).statusCode).toBe(303);
    });
    expect(placed).toEqual({ "funnel.order_placed nl": 1 });
  });

  it("is not moved by browser events for the same steps", async () => {
    const grown = await growth(async () => {
      expect(
        (
          await send(
            batch([{ event: "cart.add", properties: { productId: "canvas" } }], { route: "product" }),
          )
        ).statusCode,
      ).toBe(204);
      expect(
        (
          await send(
            batch([{ event: "checkout.place_order", properties: { lines: 1 } }], { route: "cartOverview" }),
          )
        ).statusCode,
      ).toBe(204);
    });
    expect(grown).toEqual({});
  });
});

describe("a funnel page fetched ahead by speculation rules", () => {
  const product = "/assortiment/fotoboeken/exclusief-fotoboek";
  const view = (body: unknown, headers: Record<string, string> = {}) =>
    shop.app.inject({
      method: "POST",
      url: "/analytics/view",
      remoteAddress: "10.0.0.9",
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin", ...headers },
      payload: JSON.stringify(body),
    });

  it("is answered as usual but not counted while it is only prerendered or prefetched", async () => {
    const grown = await growth(async () => {
      for (const purpose of ["prefetch;prerender", "prefetch"]) {
        const res = await shop.app.inject({ url: product, headers: { "sec-purpose": purpose } });
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain('id="product-title"');
      }
    });
    expect(grown).toEqual({});
  });

  it("counts once when the opened page sends its view beacon, for its product and language", async () => {
    const grown = await growth(async () => {
      expect((await view({ route: "product", locale: "nl", path: product })).statusCode).toBe(204);
      expect(
        (await view({ route: "product", locale: "de", path: "/sortiment/fotobuecher/exklusives-fotobuch" }))
          .statusCode,
      ).toBe(204);
      expect(
        (await view({ route: "cartAddress", locale: "nl", path: "/winkelwagen/adres" })).statusCode,
      ).toBe(204);
    });
    expect(grown).toEqual({
      "funnel.product_page nl exclusive-photobook": 1,
      "funnel.product_page de exclusive-photobook": 1,
      "funnel.address nl": 1,
    });
  });

  it.each([
    ["a page that is no funnel step", { route: "home", locale: "nl", path: "/" }],
    ["an address that is not the route's", { route: "product", locale: "nl", path: "/winkelwagen/adres" }],
    ["another language's address", { route: "cartAddress", locale: "de", path: "/winkelwagen/adres" }],
    ["an unknown product", { route: "product", locale: "nl", path: "/assortiment/fotoboeken/bestaat-niet" }],
    ["a malformed address", { route: "product", locale: "nl", path: "/assortiment/fotoboeken/%E0%A4%A" }],
    ["no path", { route: "product", locale: "nl" }],
  ])("refuses %s with a 400 and counts nothing", async (_what, body) => {
    const grown = await growth(async () => {
      expect((await view(body)).statusCode).toBe(400);
    });
    expect(grown).toEqual({});
  });

  it("refuses a beacon from another site", async () => {
    const grown = await growth(async () => {
      const res = await view(
        { route: "product", locale: "nl", path: product },
        { "sec-fetch-site": "cross-site" },
      );
      expect(res.statusCode).toBe(400);
    });
    expect(grown).toEqual({});
  });
});
