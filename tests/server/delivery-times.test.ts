import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryOverview } from "../../server/domain/delivery-overview.ts";
import { type TestShop, testShop } from "../support/app.ts";

// Monday 20 April 2026, 10:00 in Amsterdam: before the 15:00 cut-off, a week before King's Day.
let clock = new Date("2026-04-20T08:00:00Z");
let shop: TestShop;
beforeAll(async () => {
  shop = await testShop({ now: () => clock });
});
afterAll(() => shop.close());

const get = (url: string) => shop.app.inject({ url });

/** The text of a table row of one product and production kind, tags removed. */
function row(html: string, product: string, kind: "standard" | "rush"): string {
  const start = html.indexOf(`>${product}</a>`);
  const from = html.indexOf(">", html.indexOf(`delivery-table__option--${kind}`, start)) + 1;
  const end = html.indexOf("</tr>", from);
  return (
    html
      .slice(from, end)
      .replace(/<[^>]+>/g, " ")
      // Not \s: that would also take the thin spaces Intl sets around a range's dash.
      .replace(/[ \n]+/g, " ")
      .trim()
  );
}

describe("the delivery-times overview page", () => {
  it("lists per product group when an order placed now is sent and delivered, standard and rush", async () => {
    clock = new Date("2026-04-20T08:00:00Z");
    const res = await get("/klantenservice/levertijden");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.body).toContain("<h1>Levertijden</h1>");
    expect(res.body).toContain("Bestel je op een werkdag vóór 15:00 uur");
    expect(res.body).toContain(
      '<p class="delivery-times__order-before" aria-live="polite">Besteld vandaag vóór 15:00 uur</p>',
    );
    for (const group of ["Fotoboeken", "Fotoafdrukken", "Wanddecoratie"]) {
      expect(res.body).toMatch(new RegExp(`<h2 id="delivery-group-[\\w-]+">${group}</h2>`));
    }
    // Exclusive photo book: standard 3 to 5 working days, rush 2 to 4 (the spec's numbers).
    expect(row(res.body, "Exclusief fotoboek", "standard")).toBe(
      "Standaard 3 tot 5 werkdagen Woensdag 22\u2009–\u2009vrijdag 24 april Donderdag 23\u2009–\u2009dinsdag 28 april",
    );
    expect(row(res.body, "Exclusief fotoboek", "rush")).toBe(
      "Spoed 2 tot 4 werkdagen + €\u00a09,95 spoedtoeslag Tussen morgen en donderdag 23 april Woensdag 22\u2009–\u2009vrijdag 24 april",
    );
    expect(row(res.body, "Fotovergroting", "rush")).toBe(
      "Spoed 1 werkdag + €\u00a04,95 spoedtoeslag Vandaag Morgen",
    );
    expect(res.body).toContain('<tr class="delivery-table__option delivery-table__option--rush">');
  });

  it("in German uses German working days, names and words", async () => {
    clock = new Date("2026-04-24T14:00:00Z"); // Friday 16:00: after the cut-off
    const res = await get("/kundenservice/lieferzeiten");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("Bestellt am Montag, 27. April vor 15:00 Uhr");
    // King's Day (27 April) is a working day in Germany.
    expect(row(res.body, "Klassische Fotoabzüge", "standard")).toContain(
      "Montag, 27.\u2009–\u2009Dienstag, 28. April",
    );
    expect(row(res.body, "Exklusives Fotobuch", "rush")).toMatch(
      /^Express 2 bis 4 Werktage \+ 9,95\s€ Expresszuschlag/,
    );
    expect(res.body).not.toMatch(/Besteld|werkdagen|Spoed/);
  });

  it("skips King's Day in the Netherlands", async () => {
    clock = new Date("2026-04-24T14:00:00Z");
    const res = await get("/klantenservice/levertijden");
    expect(res.body).toContain("Besteld op dinsdag 28 april vóór 15:00 uur");
  });

  it("links to the contact form and the support home", async () => {
    clock = new Date("2026-04-20T08:00:00Z");
    const res = await get("/klantenservice/levertijden");
    expect(res.body).toContain('href="/klantenservice/contact"');
    expect(res.body).toContain('href="/klantenservice"');
  });
});

describe("the delivery-times JSON", () => {
  it("is the overview the page shows, with when it next changes", async () => {
    clock = new Date("2026-04-20T08:00:00Z");
    const res = await get("/api/levertijden");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.headers["cache-control"]).toBe("no-store");
    const overview = res.json() as DeliveryOverview;
    expect(overview.locale).toBe("nl");
    expect(overview.generatedAt).toBe("2026-04-20T08:00:00.000Z");
    expect(overview.refreshAt).toBe("2026-04-20T13:00:00.000Z");
    expect(overview.orderBefore).toBe("Besteld vandaag vóór 15:00 uur");
    const book = overview.groups[0]?.rows.find((r) => r.productId === "exclusive-photobook");
    expect(book?.options.map((o) => [o.kind, o.dates.sent])).toEqual([
      ["standard", { from: "2026-04-22", to: "2026-04-24" }],
      ["rush", { from: "2026-04-21", to: "2026-04-23" }],
    ]);
  });

  it("changes once the cut-off has passed, and then holds until midnight", async () => {
    clock = new Date("2026-04-20T13:00:00Z");
    const overview = (await get("/api/levertijden")).json() as DeliveryOverview;
    expect(overview.orderBefore).toBe("Besteld morgen vóór 15:00 uur");
    expect(overview.refreshAt).toBe("2026-04-20T22:00:00.000Z");
    const de = (await get("/api/lieferzeiten")).json() as DeliveryOverview;
    expect(de.orderBefore).toBe("Bestellt morgen vor 15:00 Uhr");
  });

  it("comes gzip-compressed to a browser that takes it, the same overview, made at the whole second", async () => {
    clock = new Date("2026-04-20T12:59:59.750Z");
    const plain = await get("/api/levertijden");
    const zipped = await shop.app.inject({
      url: "/api/levertijden",
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(zipped.headers["content-type"]).toMatch(/application\/json/);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString("utf8"))).toEqual(plain.json());
    expect((plain.json() as DeliveryOverview).generatedAt).toBe("2026-04-20T12:59:59.000Z");
    // Past the cut-off a moment later: a new answer, never the kept one.
    clock = new Date("2026-04-20T13:00:00.100Z");
    const after = await shop.app.inject({ url: "/api/levertijden", headers: { "accept-encoding": "gzip" } });
    const overview = JSON.parse(gunzipSync(after.rawPayload).toString("utf8")) as DeliveryOverview;
    expect(overview.orderBefore).toBe("Besteld morgen vóór 15:00 uur");
    expect(overview.generatedAt).toBe("2026-04-20T13:00:00.000Z");
  });
});

describe("when the delivery times cannot be computed", () => {
  it("the page shows the spec's text 1 with a link to customer service, and no table", async () => {
    clock = new Date(Number.NaN);
    const res = await get("/klantenservice/levertijden");
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain(
      "Het overzicht van de levertijden kan nu niet worden getoond. Probeer het later opnieuw of neem contact op met de klantenservice.",
    );
    expect(res.body).toMatch(/<a href="\/klantenservice">Naar de klantenservice<\/a>/);
    expect(res.body).not.toContain("<table");
    const de = await get("/kundenservice/lieferzeiten");
    expect(de.body).toContain("Die Übersicht der Lieferzeiten kann gerade nicht angezeigt werden.");
    expect(de.body).toMatch(/<a href="\/kundenservice">Zum Kundenservice<\/a>/);
  });

  it("the JSON answers 503 with the same text", async () => {
    clock = new Date(Number.NaN);
    const res = await get("/api/levertijden");
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      error:
        "Het overzicht van de levertijden kan nu niet worden getoond. Probeer het later opnieuw of neem contact op met de klantenservice.",
    });
  });

  it("the product page still shows the production times, without dates", async () => {
    clock = new Date(Number.NaN);
    const res = await get("/assortiment/wanddecoratie/fotokalender");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("3 tot 5 werkdagen");
    expect(res.body).not.toContain("production__dispatch");
  });
});

describe("the expected dispatch date on the product page", () => {
  it("says when standard and rush production are sent, for an order placed now", async () => {
    clock = new Date("2026-04-20T08:00:00Z");
    const res = await get("/assortiment/fotoboeken/exclusief-fotoboek");
    expect(res.body).toContain(
      '<span class="production__dispatch">Verzonden: woensdag 22\u2009–\u2009vrijdag 24 april</span>',
    );
    expect(res.body).toContain(
      '<span class="production__dispatch production__dispatch--rush">Verzonden: tussen morgen en donderdag 23 april</span>',
    );
    expect(res.body).toMatch(
      /<p class="production__note">Bij bestelling vandaag vóór 15:00 uur\. <a href="\/klantenservice\/levertijden">Alle levertijden<\/a><\/p>/,
    );
    const de = await get("/sortiment/fotobuecher/exklusives-fotobuch");
    expect(de.body).toContain("Versand: Mittwoch, 22.\u2009–\u2009Freitag, 24. April");
    expect(de.body).toContain("Bei Bestellung heute vor 15:00 Uhr.");
  });
});
