import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { loadCatalogue } from "../../server/domain/catalogue.ts";
import { loadFaq } from "../../server/domain/faq.ts";
import { locales } from "../../server/i18n/locales.ts";
import type { RouteId } from "../../server/i18n/routes.ts";
import { openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { type TestShop, testConfig, testShop } from "../support/app.ts";
import { sitemapEntries, sitemapProblems } from "../support/sitemap-schema.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const origin = "http://localhost:3000";
const get = (url: string, target = shop) =>
  target.app.inject({ method: "GET", url, headers: { host: "localhost:3000" } });

/** RFC 9309 for a file with Disallow lines only, for every user agent: a path is out when a rule is its prefix. */
function robotsRules(text: string): (path: string) => boolean {
  const disallowed = text
    .split("\n")
    .filter((line) => line.startsWith("Disallow:"))
    .map((line) => line.slice("Disallow:".length).trim())
    .filter(Boolean);
  return (path) => disallowed.some((rule) => path.startsWith(rule));
}

const attribute = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1] ?? "");

interface Crawled {
  /** Absolute URL -> its hreflang alternates, for every page a search engine may index. */
  indexable: Map<string, Record<string, string>>;
}

/**
 * What a well-behaved crawler finds: it starts at every route of the table that has no
 * parameters, in every language, and follows every link of the shop's own (no query,
 * nothing under /static/), never fetching what robots.txt disallows. A page counts when it
 * answers 200 with HTML, is not marked noindex and names itself as canonical.
 */
async function crawl(disallowed: (path: string) => boolean): Promise<Crawled> {
  const { routes } = shop.app.i18n;
  const queue = (routes.ids as RouteId[])
    .filter((id) => locales.every((l) => !routes.pattern(id, l).includes(":")))
    .flatMap((id) => locales.map((l) => routes.pathForUntyped(id, l)));
  const seen = new Set<string>();
  const indexable = new Map<string, Record<string, string>>();
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (seen.has(path) || disallowed(path)) continue;
    seen.add(path);
    const res = await get(path);
    if (res.statusCode !== 200 || !String(res.headers["content-type"]).startsWith("text/html")) continue;
    const html = res.body;
    for (const href of attribute(html, /<a [^>]*href="([^"#?]+)"/g)) {
      if (href.startsWith("/") && !href.startsWith("//") && !href.startsWith("/static/")) queue.push(href);
    }
    if (/<meta name="robots" content="noindex">/.test(html)) continue;
    if (attribute(html, /<link rel="canonical" href="([^"]+)">/g)[0] !== origin + path) continue;
    const alternates = Object.fromEntries(
      [...html.matchAll(/<link rel="alternate" hreflang="([\w-]+)" href="([^"]+)">/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    indexable.set(origin + path, alternates);
  }
  return { indexable };
}

describe("/robots.txt", () => {
  it("answers 200 as text, keeping carts, accounts, search and payments out in both languages", async () => {
    const res = await get("/robots.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(res.body).toMatch(/^User-agent: \*$/m);
    const out = robotsRules(res.body);
    const { routes } = shop.app.i18n;
    for (const locale of locales) {
      for (const path of [
        routes.pathFor("cartContents", locale),
        routes.pathFor("cartOverview", locale),
        routes.pathFor("account", locale),
        routes.pathFor("accountOrders", locale),
        routes.pathFor("search", locale),
        routes.pathFor("testPayment", locale, { payment: "tr_123" }),
        routes.pathFor("orderConfirmation", locale, { number: "100001" }),
        routes.pathFor("passwordReset", locale, { token: "abc" }),
        routes.pathFor("postcodeCheck", locale),
      ]) {
        expect(out(path), path).toBe(true);
      }
      expect(out(routes.pathFor("home", locale))).toBe(false);
      expect(out(routes.pathFor("product", locale, { category: "x", product: "y" }))).toBe(false);
    }
    expect(res.body).toContain(`Sitemap: ${origin}/sitemap.xml\n`);
  });

  it("names the sitemap at PUBLIC_URL, never at the host a request names", async () => {
    const configured = await testShop({
      env: { PUBLIC_URL: "https://www.fotohoek.nl", PAYMENT_PROVIDER: "test" },
    });
    try {
      const res = await configured.app.inject({ url: "/robots.txt", headers: { host: "evil.example" } });
      expect(res.body).toContain("Sitemap: https://www.fotohoek.nl/sitemap.xml");
      expect(res.body).not.toContain("evil.example");
    } finally {
      await configured.close();
    }
    const foreign = await shop.app.inject({ url: "/robots.txt", headers: { host: "evil.example" } });
    expect(foreign.body).toContain(`Sitemap: ${origin}/sitemap.xml`);
    expect(foreign.body).not.toContain("evil.example");
  });
});

describe("/sitemap.xml", () => {
  it("answers 200 as XML that validates against the sitemaps.org 0.9 schema", async () => {
    const res = await get("/sitemap.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(sitemapProblems(res.body)).toEqual([]);
  });

  it("lists exactly the pages a crawler may index, in both languages, with the pages' own alternates", async () => {
    const disallowed = robotsRules((await get("/robots.txt")).body);
    const { indexable } = await crawl(disallowed);
    const entries = sitemapEntries((await get("/sitemap.xml")).body);
    const listed = entries.map((e) => e.loc);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...indexable.keys()].sort());
    for (const entry of entries) {
      expect(entry.alternates, entry.loc).toEqual(indexable.get(entry.loc));
      expect(disallowed(new URL(entry.loc).pathname), entry.loc).toBe(false);
    }
    // What the crawl must have found for this to mean anything: every product and every FAQ question, in both languages.
    const catalogue = loadCatalogue(shop.config.cataloguePath);
    const faq = loadFaq(shop.config.faqDir);
    const { routes } = shop.app.i18n;
    for (const l of locales) {
      for (const p of catalogue.products) {
        const category = catalogue.category(p.category)?.slug[l] ?? "";
        expect(listed).toContain(origin + routes.pathFor("product", l, { category, product: p.slug[l] }));
      }
      for (const topic of faq.topics(l)) {
        for (const q of topic.questions) {
          expect(listed).toContain(
            origin + routes.pathFor("faqQuestion", l, { topic: topic.slug, question: q.slug }),
          );
        }
      }
    }
  });

  it("never lists carts, accounts, search, payments or mailed links", async () => {
    const listed = sitemapEntries((await get("/sitemap.xml")).body).map((e) => new URL(e.loc).pathname);
    const { routes } = shop.app.i18n;
    for (const id of [
      "cartContents",
      "account",
      "accountOrders",
      "search",
      "accountCreate",
      "contactThanks",
    ] as const) {
      for (const l of locales) expect(listed).not.toContain(routes.pathFor(id, l));
    }
    for (const path of listed) {
      expect(path).not.toMatch(
        /^\/(testbetaling|testzahlung|bestelling|bestellung)\/|\/(bevestigen|bestaetigen)\//,
      );
    }
  });

  it("is public for an hour to caches, and passes the shop's security headers", async () => {
    const res = await get("/sitemap.xml");
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("the sitemap's copy", () => {
  it("is made again when an editor changes the FAQ, which the shop reads while it runs", async () => {
    const config = testConfig();
    const faqDir = mkdtempSync(join(tmpdir(), "sitemap-faq-"));
    cpSync(config.faqDir, faqDir, { recursive: true });
    const database = openDatabase("sqlite::memory:");
    await migrateToLatest(database);
    // Looked at on every request, so the test need not wait for the shop's few seconds.
    const faq = loadFaq(faqDir, { recheckMs: 0 });
    const app = await buildApp({
      config,
      catalogue: loadCatalogue(config.cataloguePath),
      database,
      faq,
      logger: false,
    });
    try {
      const sitemap = async () =>
        (await app.inject({ url: "/sitemap.xml", headers: { host: "localhost:3000" } })).body;
      const before = await sitemap();
      expect(before).toContain("/klantenservice/faq/bestellen/hoe-bestel-ik</loc>");
      expect(await sitemap()).toBe(before);
      for (const [locale, old, renamed] of [
        ["nl", "hoe-bestel-ik", "zo-bestel-je-een-fotoproduct"],
        ["de", "wie-bestelle-ich", "so-bestellen-sie-ein-fotoprodukt"],
      ] as const) {
        const file = join(faqDir, `${locale}.json`);
        writeFileSync(file, readFileSync(file, "utf8").replace(`"slug": "${old}"`, `"slug": "${renamed}"`));
      }
      const after = await sitemap();
      expect(after).toContain("/klantenservice/faq/bestellen/zo-bestel-je-een-fotoproduct</loc>");
      expect(after).toContain("/kundenservice/faq/bestellung/so-bestellen-sie-ein-fotoprodukt</loc>");
      expect(after).not.toContain("hoe-bestel-ik");
      expect(sitemapProblems(after)).toEqual([]);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
