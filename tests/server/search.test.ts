import { cpSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { projectRoot } from "../../server/config.ts";
import { loadCatalogue } from "../../server/domain/catalogue.ts";
import { loadFaq } from "../../server/domain/faq.ts";
import { maxQueryLength } from "../../server/domain/search.ts";
import { suggestionLimit } from "../../server/routes/search.ts";
import { openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { type TestShop, testConfig, testShop } from "../support/app.ts";
import { shopper } from "../support/shopper.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  shop.app.inject({ url, headers: { host: "shop.test", ...headers } });
const ajax = (url: string) => get(url, { "x-requested-with": "XMLHttpRequest" });
const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? "";
const search = (path: string, q: string) => `${path}?${new URLSearchParams({ q })}`;

describe("the results page", () => {
  it("lists the Dutch FAQ questions that match, with their links and a snippet, and counts them", async () => {
    const res = await get(search("/klantenservice/zoeken", "levertijd"));
    expect(res.statusCode).toBe(200);
    const page = main(res.body);
    expect(res.body).toContain("<title>Zoekresultaten voor „levertijd” | Fotohoek</title>");
    expect(page).toContain("<h1>Zoeken in de klantenservice</h1>");
    expect(page).toContain('<p class="search-results__count">5 resultaten voor „levertijd”</p>');
    expect(page).toMatch(
      /<h2[^>]*>Veelgestelde vragen <span class="search-results__group-count">\(3\)<\/span><\/h2>/,
    );
    // After the questions, the pages whose text speaks of it.
    expect(page).toMatch(
      /<h2[^>]*>Pagina&#39;s <span class="search-results__group-count">\(2\)<\/span><\/h2>/,
    );
    expect(page).toContain('href="/verzending-en-levering"');
    expect(page).toContain('href="/klantenservice/faq/levering/feestdagen"');
    // "Levertijden" in the answer, found by its singular, is marked in the snippet.
    expect(page).toContain("<mark>levertijden</mark>");
    // The field shows the query back.
    expect(page).toMatch(/<input [^>]*name="q" type="search" value="levertijd"/);
    // No product is about delivery times: no empty product group.
    expect(page).not.toContain("Producten");
  });

  it("finds the pages on returning, cancelling and the terms, by their words or their name in the footer", async () => {
    const links = async (path: string, query: string) =>
      [
        ...main((await get(search(path, query))).body).matchAll(
          /class="search-result__link" href="([^"]+)"/g,
        ),
      ].map((m) => m[1]);
    expect(await links("/klantenservice/zoeken", "retourneren")).toContain("/retourneren-en-klachten");
    expect(await links("/klantenservice/zoeken", "opzeggen")).toContain("/opzeggen");
    expect(await links("/klantenservice/zoeken", "herroepen")).toEqual(
      expect.arrayContaining(["/herroepingsrecht", "/herroepen"]),
    );
    // The German terms' title is "Allgemeine Geschäftsbedingungen"; the footer calls them AGB.
    expect((await links("/kundenservice/suche", "AGB"))[0]).toBe("/agb");
    expect(await links("/kundenservice/suche", "kündigen")).toContain("/kuendigen");
    expect(await links("/kundenservice/suche", "Impressum")).toContain("/impressum");
    // Words the pages do not use find them through the editors' synonyms (content/search-synonyms.json).
    expect(await links("/kundenservice/suche", "Retoure")).toContain("/reklamation");
    expect(await links("/kundenservice/suche", "Garantie")).toContain("/reklamation");
    expect((await links("/klantenservice/zoeken", "ruilen"))[0]).toBe("/retourneren-en-klachten");
    const page = main((await get(search("/kundenservice/suche", "Reklamation"))).body);
    expect(page).toMatch(/<h2[^>]*>Seiten <span class="search-results__group-count">\(\d+\)<\/span><\/h2>/);
    expect(page).toContain('<p class="search-result__context">Rechtliches</p>');
  });

  it("lists German questions and products, grouped, whether the shopper types umlauts or not", async () => {
    const res = await get(search("/kundenservice/suche", "Fotobücher"));
    expect(res.statusCode).toBe(200);
    const page = main(res.body);
    expect(page).toMatch(/<p class="search-results__count">\d+ Ergebnisse für „Fotobücher“<\/p>/);
    const faqAt = page.indexOf(">Häufige Fragen <");
    const productsAt = page.indexOf(">Produkte <");
    expect(faqAt).toBeGreaterThan(0);
    expect(productsAt).toBeGreaterThan(faqAt);
    expect(page.slice(productsAt)).toContain('href="/sortiment/fotobuecher/klassisches-fotobuch"');
    expect(page).toContain('href="/kundenservice/faq/fotobuecher/seitenzahl"');
    const without = main((await get(search("/kundenservice/suche", "fotobuecher"))).body);
    const links = (html: string) =>
      [...html.matchAll(/class="search-result__link" href="([^"]+)"/g)].map((m) => m[1]);
    expect(links(without)).toEqual(links(page));
  });

  it("finds a Dutch product by its plural and a part of its name", async () => {
    const page = main((await get(search("/klantenservice/zoeken", "fotoboeken"))).body);
    expect(page).toContain('href="/assortiment/fotoboeken/vierkant-fotoboek"');
    expect(page).not.toContain('href="/assortiment/wanddecoratie/fotokalender"');
  });

  it("counts each result's place in its group for analytics, never the words typed", async () => {
    const page = main((await get(search("/klantenservice/zoeken", "fotoboek"))).body);
    expect(page).toContain(
      'data-analytics="search.result_click" data-analytics-kind="faq" data-analytics-position="1"',
    );
    expect(page).toContain(
      'data-analytics="search.result_click" data-analytics-kind="product" data-analytics-position="1"',
    );
    expect(page).not.toMatch(/data-analytics-[a-z]+="fotoboek"/);
  });

  it("is not for search engines: meta robots and X-Robots-Tag say noindex", async () => {
    for (const url of ["/klantenservice/zoeken", search("/kundenservice/suche", "Rechnung")]) {
      const res = await get(url);
      expect(res.headers["x-robots-tag"], url).toBe("noindex");
      expect(res.body, url).toContain('<meta name="robots" content="noindex">');
    }
  });

  it("lets the language switcher search the same words in the other language", async () => {
    const res = await get(search("/klantenservice/zoeken", "factuur"));
    expect(res.body).toContain('<a href="/kundenservice/suche?q=factuur" hreflang="de"');
    expect((await get("/kundenservice/suche")).body).toContain(
      '<a href="/klantenservice/zoeken" hreflang="nl"',
    );
  });

  it("shows the shopper's own cart count in the header", async () => {
    const s = await shopper(shop.app);
    const added = await s.post("/winkelwagen/inhoud", {
      product: "classic-prints",
      orientation: "landscape",
      size: "15x10",
      quantity: "1",
    });
    expect(added.statusCode).toBe(303);
    expect((await s.get(search("/klantenservice/zoeken", "fotoboek"))).body).toContain('data-count="1"');
    expect((await get(search("/klantenservice/zoeken", "fotoboek"))).body).toContain('data-count="0"');
  });
});

describe("an empty query or one without hits", () => {
  it("invites the shopper to type and leads to the FAQ overview and the contact form", async () => {
    for (const url of ["/klantenservice/zoeken", search("/klantenservice/zoeken", "   ")]) {
      const page = main((await get(url)).body);
      expect(page, url).toContain("Waar kunnen we je mee helpen?");
      expect(page, url).toContain('<a href="/klantenservice/faq/overzicht">');
      expect(page, url).toContain('<a href="/klantenservice/contact">');
      expect(page, url).not.toContain("search-results__count");
    }
  });

  it("says nothing was found, suggests checking the spelling, and leads on, in Dutch and German", async () => {
    const nl = await get(search("/klantenservice/zoeken", "xyzzy"));
    expect(nl.statusCode).toBe(200);
    expect(main(nl.body)).toContain("Geen resultaten voor „xyzzy”");
    expect(main(nl.body)).toContain("Controleer de spelling");
    expect(main(nl.body)).toContain(
      '<a href="/klantenservice/contact">Stel je vraag via het contactformulier</a>',
    );
    const de = main((await get(search("/kundenservice/suche", "xyzzy"))).body);
    expect(de).toContain("Keine Ergebnisse für „xyzzy“");
    expect(de).toContain("Prüfen Sie die Schreibweise");
    expect(de).toContain('<a href="/kundenservice/faq/uebersicht">');
    expect(de).toContain('<a href="/kundenservice/kontakt">');
  });
});

describe("what a shopper types", () => {
  it("is written back escaped, in the title, the field and the text", async () => {
    const evil = `<script>alert(1)</script>"><img src=x onerror=alert(2)>`;
    const res = await get(search("/klantenservice/zoeken", evil));
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("<script>alert(1)");
    expect(res.body).not.toContain("<img src=x");
    expect(res.body).toContain(
      "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;",
    );
  });

  it("is cut to the longest query, never failing on a long or odd one", async () => {
    const res = await get(search("/klantenservice/zoeken", `fotoboek ${"x".repeat(5000)}`));
    expect(res.statusCode).toBe(200);
    const value = /name="q" type="search" value="([^"]*)"/.exec(res.body)?.[1] ?? "";
    expect(value).toHaveLength(maxQueryLength);
    expect((await get("/klantenservice/zoeken?q=levertijd&q=fotoboek")).body).toContain('value="levertijd"');
    expect((await get("/klantenservice/zoeken?q[a]=1")).statusCode).toBe(200);
    expect((await get("/klantenservice/zoeken?q=%F0%9F%93%B7%20%C3%9F")).statusCode).toBe(200);
  });
});

describe("the suggestions for the ajax hook", () => {
  it("are the same address's fragment: options with their links, no page around them", async () => {
    const res = await ajax(search("/klantenservice/zoeken", "levertijd"));
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-ajax-fragment"]).toBe("true");
    expect(res.headers.vary).toContain("X-Requested-With");
    expect(res.headers["x-robots-tag"]).toBe("noindex");
    expect(res.body).not.toContain("<html");
    const options = [...res.body.matchAll(/<li class="support-search__option" role="option"[^>]*>/g)];
    expect(options).toHaveLength(5);
    expect(res.body).toContain(
      'data-search-href="/klantenservice/faq/levering/levertijd" data-search-kind="faq" data-search-position="1"',
    );
    expect(res.body).toContain("Vraag · Levering");
  });

  it("offer at most a few, and then the results page with the number of results", async () => {
    const page = main((await get(search("/klantenservice/zoeken", "foto"))).body);
    const total = Number(/(\d+) resultaten voor/.exec(page)?.[1]);
    expect(total).toBeGreaterThan(suggestionLimit);
    const res = await ajax(search("/klantenservice/zoeken", "foto"));
    expect([...res.body.matchAll(/data-search-kind="(faq|product)"/g)]).toHaveLength(suggestionLimit);
    expect(res.body).toContain(
      `data-search-href="/klantenservice/zoeken?q=foto" data-search-kind="all" data-search-total="${total}">Bekijk alle ${total} resultaten</li>`,
    );
  });

  it("are nothing for no hits or an empty field, and German in German", async () => {
    expect((await ajax(search("/klantenservice/zoeken", "xyzzy"))).body.trim()).toBe("");
    expect((await ajax("/klantenservice/zoeken?q=")).body.trim()).toBe("");
    const de = await ajax(search("/kundenservice/suche", "Rechnung"));
    expect(de.body).toContain('data-search-href="/kundenservice/faq/bezahlung/rechnung"');
    expect(de.body).toContain("Frage · Bezahlung");
  });
});

describe("the search form", () => {
  const once = (html: string) => (html.match(/<form class="support-search__form"/g) ?? []).length;

  it("is on the customer-service, FAQ and delivery-times pages, once each, in both languages", async () => {
    for (const [url, action] of [
      ["/klantenservice", "/klantenservice/zoeken"],
      ["/klantenservice/faq/overzicht", "/klantenservice/zoeken"],
      ["/klantenservice/faq/levering", "/klantenservice/zoeken"],
      ["/klantenservice/faq/levering/feestdagen", "/klantenservice/zoeken"],
      ["/klantenservice/levertijden", "/klantenservice/zoeken"],
      ["/kundenservice", "/kundenservice/suche"],
      ["/kundenservice/faq/uebersicht", "/kundenservice/suche"],
      ["/kundenservice/faq/lieferung/feiertage", "/kundenservice/suche"],
      ["/kundenservice/lieferzeiten", "/kundenservice/suche"],
    ]) {
      const res = await get(url as string);
      expect(once(res.body), url).toBe(1);
      expect(res.body, url).toContain(`role="search" method="get" action="${action}"`);
    }
    expect((await get("/klantenservice")).body).toContain(
      '<label class="support-search__label" for="support-search-q">Zoeken in de klantenservice</label>',
    );
    expect((await get("/kundenservice")).body).toContain(">Im Kundenservice suchen</label>");
  });

  it("is not on the contact page, which has a form of its own", async () => {
    expect(once((await get("/klantenservice/contact")).body)).toBe(0);
  });
});

describe("the index after an editor saved the FAQ", () => {
  it("finds the new words without a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shop-search-faq-"));
    cpSync(resolve(projectRoot, "content/faq"), dir, { recursive: true });
    const file = join(dir, "nl.json");
    let clock = 0;
    const config = testConfig({ FAQ_DIR: dir });
    const database = openDatabase("sqlite::memory:");
    await migrateToLatest(database);
    const app = await buildApp({
      config,
      catalogue: loadCatalogue(config.cataloguePath),
      database,
      faq: loadFaq(dir, { now: () => clock }),
      logger: false,
    });
    try {
      const find = async (q: string) =>
        (await app.inject({ url: search("/klantenservice/zoeken", q), headers: { host: "shop.test" } })).body;
      expect(await find("kerstdagen")).toContain("Geen resultaten");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace(
          "Leveren jullie ook op feestdagen?",
          "Leveren jullie op kerstdagen?",
        ),
      );
      const when = new Date(Date.UTC(2030, 0, 1));
      utimesSync(file, when, when);
      clock += 5_000;
      const page = await find("kerstdagen");
      expect(page).toContain("1 resultaat voor „kerstdagen”");
      expect(page).toMatch(
        /href="\/klantenservice\/faq\/levering\/feestdagen"[^>]*>Leveren jullie op kerstdagen\?<\/a>/,
      );
    } finally {
      await app.close();
      await database.close();
    }
  });
});
