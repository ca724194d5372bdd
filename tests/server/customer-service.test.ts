import { cpSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../server/app.ts";
import { projectRoot } from "../../server/config.ts";
import { loadCatalogue } from "../../server/domain/catalogue.ts";
import { loadFaq } from "../../server/domain/faq.ts";
import { openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { type TestShop, testConfig, testShop } from "../support/app.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const get = (url: string) => shop.app.inject({ url, headers: { host: "shop.test" } });

/** The <details> of one topic in the FAQ navigation. */
function topicItem(html: string, title: string): string {
  const at = html.indexOf(`<span class="faq-nav__title">${title}</span>`);
  const start = html.lastIndexOf("<details", at);
  return html.slice(start, html.indexOf("</details>", at));
}

describe("the support home", () => {
  it("leads to the FAQ by topic, the contact form and the delivery times, in Dutch and German", async () => {
    const nl = await get("/klantenservice");
    expect(nl.statusCode).toBe(200);
    expect(nl.body).toContain("<h1>Klantenservice</h1>");
    expect(nl.body).toContain(
      '<a class="button" href="/klantenservice/contact">Naar het contactformulier</a>',
    );
    expect(nl.body).toContain('href="/klantenservice/levertijden">Bekijk de levertijden</a>');
    expect(nl.body).toContain('href="/klantenservice/faq/bestellen/bestelling-wijzigen"');
    expect(nl.body).toMatch(
      /<nav class="faq-nav" id="faq-nav" data-island="faq" aria-label="Veelgestelde vragen per onderwerp">/,
    );
    // No FAQ page is the current one here: every topic starts closed.
    expect(nl.body).not.toMatch(/<details class="faq-nav__item" open>/);
    const de = await get("/kundenservice");
    expect(de.body).toContain("<h1>Kundenservice</h1>");
    expect(de.body).toContain('href="/kundenservice/kontakt">Zum Kontaktformular</a>');
    expect(de.body).toContain('href="/kundenservice/faq/lieferung/feiertage"');
  });

  it("is linked from every page's header and footer, with the FAQ, contact and delivery times", async () => {
    const home = await get("/");
    expect(home.body).toMatch(/<li><a href="\/klantenservice">Klantenservice<\/a><\/li>\s*<\/ul>\s*<\/nav>/);
    const footer = home.body.slice(home.body.indexOf('<footer class="site-footer">'));
    for (const [href, text] of [
      ["/klantenservice", "Klantenservice"],
      ["/klantenservice/faq/overzicht", "Veelgestelde vragen"],
      ["/klantenservice/contact", "Contact"],
      ["/klantenservice/levertijden", "Levertijden"],
    ]) {
      expect(footer).toContain(`<li><a href="${href}">${text}</a></li>`);
    }
    const de = await get("/de");
    expect(de.body).toContain('<li><a href="/kundenservice/lieferzeiten">Lieferzeiten</a></li>');
    const contact = await get("/klantenservice/contact");
    expect(contact.body).toContain('<a href="/klantenservice" aria-current="true">Klantenservice</a>');
  });
});

describe("the FAQ", () => {
  it("has addresses containing /faq/ in both languages", async () => {
    for (const url of [
      "/klantenservice/faq/overzicht",
      "/klantenservice/faq/levering",
      "/klantenservice/faq/levering/feestdagen",
      "/kundenservice/faq/uebersicht",
      "/kundenservice/faq/lieferung",
      "/kundenservice/faq/lieferung/feiertage",
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
    }
  });

  it("shows a question with its answer; its topic is open and the question marked as the current page", async () => {
    const res = await get("/klantenservice/faq/levering/feestdagen");
    expect(res.body).toContain('<h1 id="faq-question">Leveren jullie ook op feestdagen?</h1>');
    expect(res.body).toContain(
      'In het <a href="/klantenservice/levertijden">overzicht van de levertijden</a> is daar al rekening mee gehouden.',
    );
    const delivery = topicItem(res.body, "Levering");
    expect(delivery).toMatch(/^<details class="faq-nav__item" open>/);
    expect(delivery).toContain(
      '<a href="/klantenservice/faq/levering/feestdagen" aria-current="page">Leveren jullie ook op feestdagen?</a>',
    );
    expect(res.body.match(/aria-current="page"/g)).toHaveLength(2); // the nav and the breadcrumb
    expect(topicItem(res.body, "Bestellen")).toMatch(/^<details class="faq-nav__item">/);
  });

  it("shows the collapsible list on the overview too, with the overview marked as the current page", async () => {
    for (const [url, heading, home] of [
      ["/klantenservice/faq/overzicht", "Veelgestelde vragen", "Alle onderwerpen"],
      ["/kundenservice/faq/uebersicht", "Häufige Fragen", "Alle Themen"],
    ] as const) {
      const res = await get(url);
      expect(res.body, url).toContain(`<h1>${heading}</h1>`);
      const aside = res.body.slice(res.body.indexOf('<div class="support-layout__aside">'));
      expect(aside, url).toMatch(
        /^<div class="support-layout__aside">\s*<nav class="faq-nav" id="faq-nav" data-island="faq"/,
      );
      expect(aside, url).toContain(
        `<li class="faq-nav__home"><a href="${url}" aria-current="page">${home}</a></li>`,
      );
      // The overview is the only current page in the list, and no topic is open.
      const nav = aside.slice(0, aside.indexOf("</nav>"));
      expect(nav.match(/aria-current="page"/g), url).toHaveLength(1);
      expect(nav, url).not.toMatch(/<details class="faq-nav__item" open>/);
      expect(nav, url).toMatch(/<details class="faq-nav__item">\s*<summary class="faq-nav__summary">/);
    }
  });

  it("leads back to the overview from the list on every other FAQ page, not marked there", async () => {
    const res = await get("/klantenservice/faq/levering/feestdagen");
    expect(res.body).toContain(
      '<li class="faq-nav__home"><a href="/klantenservice/faq/overzicht">Alle onderwerpen</a></li>',
    );
    // The support home links to the overview below the list instead.
    const home = await get("/klantenservice");
    expect(home.body).not.toContain("faq-nav__home");
  });

  it("marks a topic's own page as current and opens it", async () => {
    const res = await get("/kundenservice/faq/bezahlung");
    expect(res.body).toContain("<h1>Bezahlung</h1>");
    const payment = topicItem(res.body, "Bezahlung");
    expect(payment).toMatch(/^<details class="faq-nav__item" open>/);
    expect(payment).toContain(
      '<a class="faq-nav__overview" href="/kundenservice/faq/bezahlung" aria-current="page">Alle Fragen zum Thema Bezahlung</a>',
    );
    // Every answer of the topic is on its page.
    expect(res.body).toContain("Alle Preise im Shop verstehen sich inklusive MwSt.");
  });

  it("links each FAQ page to the contact form and the delivery-times overview", async () => {
    for (const url of ["/klantenservice/faq/overzicht", "/klantenservice/faq/account/privacy"]) {
      const body = (await get(url)).body;
      const help = body.slice(body.indexOf('<aside class="support-help"'));
      expect(help, url).toContain('href="/klantenservice/contact"');
      expect(help, url).toContain('href="/klantenservice/levertijden"');
    }
  });

  it("switches language to the same question", async () => {
    const res = await get("/klantenservice/faq/fotoboeken/spoedproductie");
    expect(res.body).toContain(
      '<a href="/kundenservice/faq/fotobuecher/expressproduktion" hreflang="de" lang="de"',
    );
    expect(res.body).toContain(
      '<link rel="alternate" hreflang="de" href="http://localhost:3000/kundenservice/faq/fotobuecher/expressproduktion">',
    );
  });

  it("answers 404 for a topic or question that does not exist", async () => {
    expect((await get("/klantenservice/faq/bestaat-niet")).statusCode).toBe(404);
    expect((await get("/klantenservice/faq/levering/bestaat-niet")).statusCode).toBe(404);
    // A question under another topic than its own is not found either.
    expect((await get("/klantenservice/faq/betalen/feestdagen")).statusCode).toBe(404);
  });
});

describe("the FAQ after an editor saved its files", () => {
  it("shows the change without a restart, and while a saved file is broken keeps the last good pages and logs why", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shop-faq-edit-"));
    cpSync(resolve(projectRoot, "content/faq"), dir, { recursive: true });
    const file = join(dir, "nl.json");
    const original = readFileSync(file, "utf8");
    const save = (text: string, second: number) => {
      writeFileSync(file, text);
      const when = new Date(Date.UTC(2030, 0, 1, 0, 0, second));
      utimesSync(file, when, when);
    };
    let clock = 0;
    const logged: string[] = [];
    const config = testConfig({ FAQ_DIR: dir });
    const database = openDatabase("sqlite::memory:");
    await migrateToLatest(database);
    const app = await buildApp({
      config,
      catalogue: loadCatalogue(config.cataloguePath),
      database,
      faq: loadFaq(dir, { now: () => clock }),
      logger: { level: "info", stream: { write: (line: string) => logged.push(line) } },
    });
    try {
      const page = (url: string) => app.inject({ url, headers: { host: "shop.test" } });
      const question = "/klantenservice/faq/levering/feestdagen";
      expect((await page(question)).body).toContain(
        '<h1 id="faq-question">Leveren jullie ook op feestdagen?</h1>',
      );
      // Pages that show the FAQ are cached; the change must not wait for the copy to expire.
      expect((await page("/klantenservice")).body).toContain("Leveren jullie ook op feestdagen?");

      save(original.replace("Leveren jullie ook op feestdagen?", "Bezorgen jullie op feestdagen?"), 1);
      clock += 5_000;
      const changed = await page(question);
      expect(changed.statusCode).toBe(200);
      expect(changed.body).toContain('<h1 id="faq-question">Bezorgen jullie op feestdagen?</h1>');
      expect((await page("/klantenservice")).body).toContain("Bezorgen jullie op feestdagen?");
      expect((await page("/klantenservice/faq/overzicht")).body).toContain("Bezorgen jullie op feestdagen?");

      save('{ "topics": [', 2);
      clock += 5_000;
      const broken = await page(question);
      expect(broken.statusCode).toBe(200);
      expect(broken.body).toContain('<h1 id="faq-question">Bezorgen jullie op feestdagen?</h1>');
      const errors = logged.map((line) => JSON.parse(line) as { level: number; msg: string });
      expect(errors.filter((e) => e.level >= 50).map((e) => e.msg)).toEqual([
        expect.stringMatching(/^faq: content files not taken in, the last good version stays: .*nl\.json: /),
      ]);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
