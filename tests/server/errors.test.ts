import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

const logLines: Array<Record<string, unknown>> = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split("\n").filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop({
    logger: { level: "warn", stream: logStream },
    beforeReady(app) {
      app.get("/kapot", async () => {
        throw new Error("secret internals at /srv/shop/db.ts:42");
      });
      app.get("/ontbrekend", async (request, reply) => {
        const t = app.i18n.t[request.locale];
        return reply.page("pages/error", {
          title: t("home.title"),
          heading: t("home.doesNotExist"),
          message: "",
        });
      });
    },
  });
});
afterAll(() => shop.close());

describe("a page that does not exist", () => {
  it("answers 404 in Dutch with a link home", async () => {
    const res = await shop.app.inject({ url: "/bestaat-niet" });
    expect(res.statusCode).toBe(404);
    expect(res.body).toMatch(/<html lang="nl"/);
    expect(res.body).toContain("Pagina niet gevonden");
    expect(res.body).toMatch(/<a class="button" href="\/">Naar de homepage<\/a>/);
    expect(res.body).toContain('<meta name="robots" content="noindex">');
  });

  it("answers in German under a German path", async () => {
    for (const url of ["/de/gibt-es-nicht", "/einkaufswagen/falsch"]) {
      const res = await shop.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.body).toMatch(/<html lang="de"/);
      expect(res.body).toContain("Seite nicht gefunden");
      expect(res.body).toMatch(/href="\/de">Zur Startseite<\/a>/);
    }
  });

  it("answers in the browser's language when the path does not tell", async () => {
    const res = await shop.app.inject({ url: "/xyz", headers: { "accept-language": "de-DE,de;q=0.9" } });
    expect(res.body).toMatch(/<html lang="de"/);
  });

  it("still offers both languages' home pages in the switcher", async () => {
    const res = await shop.app.inject({ url: "/bestaat-niet" });
    expect(res.body).toMatch(/<a href="\/de" hreflang="de" lang="de"[^>]*>Deutsch<\/a>/);
    expect(res.body).not.toContain('rel="canonical"');
  });
});

describe("a page that fails", () => {
  it("answers 500 with the localized error page and never a stack trace", async () => {
    const res = await shop.app.inject({ url: "/kapot" });
    expect(res.statusCode).toBe(500);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body).toContain("Er ging iets mis");
    expect(res.body).not.toContain("secret internals");
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    expect(logLines.some((l) => l.msg === "request failed")).toBe(true);
  });

  it("answers in German for a German visitor", async () => {
    const res = await shop.app.inject({ url: "/kapot", headers: { "accept-language": "de" } });
    expect(res.body).toContain("Etwas ist schiefgelaufen");
  });
});

describe("a text that is missing from the locale files", () => {
  it("renders as TRANSLATION MISSING FOR: <key> and is logged once, not on every request", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await shop.app.inject({ url: "/ontbrekend" });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<h1 id="error-title">TRANSLATION MISSING FOR: home.doesNotExist</h1>');
    }
    const warnings = logLines.filter((l) => l.msg === "translation missing");
    expect(warnings).toEqual([expect.objectContaining({ key: "home.doesNotExist", locale: "nl" })]);
  });
});
