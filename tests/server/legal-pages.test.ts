import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartCookieName } from "../../server/http/cookies/cart-cookie.ts";
import { csrfCookieName } from "../../server/http/cookies/cookie-names.ts";
import { sessionCookieName } from "../../server/http/cookies/session-cookie.ts";
import { shopperCookieName } from "../../server/http/cookies/shopper-cookie.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { textOf } from "../support/shopper.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const get = (url: string) => shop.app.inject({ method: "GET", url, headers: { host: "shop.test" } });
const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? "";
const footer = (html: string) => /<footer[\s\S]*<\/footer>/.exec(html)?.[0] ?? "";

const company = JSON.parse(readFileSync(new URL("../../content/company.json", import.meta.url), "utf8"));
const prices = JSON.parse(readFileSync(new URL("../../content/prices.json", import.meta.url), "utf8"));

/** Every legal page, its address in each language and the title its content file gives it. */
const pages = [
  { id: "legalNotice", nl: ["/bedrijfsgegevens", "Bedrijfsgegevens"], de: ["/impressum", "Impressum"] },
  {
    id: "terms",
    nl: ["/algemene-voorwaarden", "Algemene voorwaarden"],
    de: ["/agb", "Allgemeine Geschäftsbedingungen"],
  },
  {
    id: "withdrawal",
    nl: ["/herroepingsrecht", "Herroepingsrecht"],
    de: ["/widerrufsbelehrung", "Widerrufsbelehrung"],
  },
  {
    id: "shippingAndDelivery",
    nl: ["/verzending-en-levering", "Verzending en levering"],
    de: ["/versand-und-lieferung", "Versand und Lieferung"],
  },
  {
    id: "returnsAndComplaints",
    nl: ["/retourneren-en-klachten", "Retourneren en klachten"],
    de: ["/reklamation", "Reklamation"],
  },
  { id: "privacy", nl: ["/privacy", "Privacyverklaring"], de: ["/datenschutz", "Datenschutzerklärung"] },
  { id: "cookies", nl: ["/cookies", "Cookies"], de: ["/cookie-hinweise", "Cookie-Hinweise"] },
  {
    id: "accessibility",
    nl: ["/toegankelijkheidsverklaring", "Toegankelijkheidsverklaring"],
    de: ["/barrierefreiheit", "Erklärung zur Barrierefreiheit"],
  },
] as const;

describe("the legal pages", () => {
  for (const page of pages) {
    for (const locale of ["nl", "de"] as const) {
      const [path, title] = page[locale];
      it(`${locale} ${path}: the editors' text in the shop's layout, with a description and both languages linked`, async () => {
        const res = await get(path);
        expect(res.statusCode).toBe(200);
        expect(res.body).toMatch(new RegExp(`<html lang="${locale}"`));
        expect(res.body).toContain('<a class="skip-link" href="#main">');
        expect(res.body).toMatch(/<nav class="site-nav"/);
        expect(main(res.body)).toContain(`<h1>${title}</h1>`);
        expect(res.body).toMatch(/<meta name="description" content="[^"]{40,}">/);
        const other = page[locale === "nl" ? "de" : "nl"][0];
        expect(res.body).toContain(
          `hreflang="${locale === "nl" ? "de" : "nl"}" href="http://localhost:3000${other}"`,
        );
        // The editors' Markdown may hold no markup of its own: no script, no inline handler.
        expect(main(res.body)).not.toMatch(/<script|\son\w+=/);
      });
    }
  }

  it("the company details and the Impressum name the seller from content/company.json", async () => {
    for (const [path, locale] of [
      ["/bedrijfsgegevens", "nl"],
      ["/impressum", "de"],
    ] as const) {
      const text = textOf(main((await get(path)).body));
      for (const fact of [
        company.name,
        company.legalForm[locale],
        ...company.representatives,
        company.address.street,
        `${company.address.postcode} ${company.address.city}`,
        company.address.country[locale],
        company.customerService[locale].email,
        company.customerService[locale].phone,
        company.register.name[locale],
        company.register.number,
        company.vatId,
      ]) {
        expect(text, `${path}: ${fact}`).toContain(fact);
      }
    }
    const impressum = (await get("/impressum")).body;
    expect(impressum).toContain(`href="mailto:${company.customerService.de.email}"`);
    expect(impressum).toContain(`href="tel:${company.customerService.de.phone.replaceAll(" ", "")}"`);
  });

  it("gives the same e-mail address and phone number in the legal notice as in the footer below it", async () => {
    // A shopper who reads the Impressum and the footer of one page must not find two contacts.
    for (const path of ["/impressum", "/bedrijfsgegevens"]) {
      const page = (await get(path)).body;
      const footer = /<footer class="site-footer"[\s\S]*<\/footer>/.exec(page)?.[0] ?? "";
      const contacts = (html: string) =>
        [...html.matchAll(/href="((?:mailto|tel):[^"]+)"/g)].map((m) => m[1]);
      expect(contacts(footer), path).not.toEqual([]);
      for (const contact of contacts(main(page)))
        expect(contacts(footer), `${path}: ${contact}`).toContain(contact);
    }
  });

  it("says the ODR platform is gone, without linking it, and whether the seller takes part in dispute resolution", async () => {
    for (const path of ["/impressum", "/bedrijfsgegevens"]) {
      const html = main((await get(path)).body);
      expect(html).not.toMatch(/ec\.europa\.eu\/consumers\/odr/);
      expect(textOf(html)).toContain(
        path === "/impressum" ? "am 20. Juli 2025 eingestellt" : "sinds 20 juli 2025 niet meer",
      );
    }
    expect(textOf(main((await get("/impressum")).body))).toContain(
      "Wir sind nicht bereit und nicht verpflichtet, an Streitbeilegungsverfahren vor einer Verbraucherschlichtungsstelle teilzunehmen (§ 36 Verbraucherstreitbeilegungsgesetz).",
    );
  });

  it("the withdrawal information holds the statutory model form, filled with the seller, and the exclusion", async () => {
    const de = textOf(main((await get("/widerrufsbelehrung")).body));
    expect(de).toContain("Muster-Widerrufsformular");
    expect(de).toContain(
      `An ${company.name}, ${company.address.street}, ${company.address.postcode} ${company.address.city}`,
    );
    expect(de).toContain("Hiermit widerrufe(n) ich/wir (*) den von mir/uns (*) abgeschlossenen Vertrag");
    expect(de).toContain("Unterschrift des/der Verbraucher(s) (nur bei Mitteilung auf Papier)");
    expect(de).toContain("(§ 312g Abs. 2 Nr. 1 BGB)");
    const nl = textOf(main((await get("/herroepingsrecht")).body));
    expect(nl).toContain("Modelformulier voor herroeping");
    expect(nl).toContain("Ik/Wij (*) deel/delen (*) u hierbij mede dat ik/wij (*) onze overeenkomst");
    expect(nl).toContain("(artikel 6:230p, onderdeel f, Burgerlijk Wetboek)");
  });

  it("the withdrawal flow for orders says that every product is personalised and has no right", async () => {
    for (const [path, words] of [
      [
        "/herroepingsrecht/overeenkomst-herroepen",
        "Een bestelling uit de winkel kun je daarom niet herroepen.",
      ],
      [
        "/widerrufsbelehrung/vertrag-widerrufen",
        "Eine Bestellung aus dem Shop können Sie daher nicht widerrufen.",
      ],
    ] as const) {
      const res = await get(path);
      expect(res.statusCode).toBe(200);
      expect(textOf(main(res.body))).toContain(words);
    }
  });

  it("the shipping page gives the price list's shipping costs and every product's production time", async () => {
    const nl = textOf(main((await get("/verzending-en-levering")).body));
    expect(nl).toContain(
      `Nederland € ${(prices.shipping.NL / 100).toFixed(2).replace(".", ",")} PostNL 1 werkdag`,
    );
    expect(nl).toContain(
      `Duitsland € ${(prices.shipping.DE / 100).toFixed(2).replace(".", ",")} DHL 1–2 werkdagen`,
    );
    expect(nl).toContain("Exclusief fotoboek 3 tot 5 werkdagen 2 tot 4 werkdagen, toeslag € 9,95 ja");
    const de = textOf(main((await get("/versand-und-lieferung")).body));
    expect(de).toContain("Fotoposter 2 bis 3 Werktage – nein");
  });

  it("the terms say the subscription's VAT is that of the country the subscriber lives in, at its rates", async () => {
    const nl = textOf(main((await get("/algemene-voorwaarden")).body));
    expect(nl).toContain(
      "de btw is die van het land waar je woont, zoals je dat bij de aanmelding opgeeft: 21% in Nederland, 19% in Duitsland.",
    );
    const de = textOf(main((await get("/agb")).body));
    expect(de).toContain(
      "wie Sie es bei der Anmeldung angeben: 19 % in Deutschland, 21 % in den Niederlanden.",
    );
  });

  it("the complaints page covers the statutory warranty", async () => {
    expect(textOf(main((await get("/retourneren-en-klachten")).body))).toContain(
      "artikel 7:17 Burgerlijk Wetboek",
    );
    const de = textOf(main((await get("/reklamation")).body));
    expect(de).toContain("§§ 434 ff. BGB");
    expect(de).toContain("zwei Jahre nach der Ablieferung");
  });

  it("the cookie page lists every cookie the shop sets, and says there is no banner because all are functional", async () => {
    for (const path of ["/cookies", "/cookie-hinweise"]) {
      const html = main((await get(path)).body);
      const cells = [...html.matchAll(/<tr>\s*<td>([^<]+)<\/td>/g)].map((m) => m[1]);
      expect(cells).toEqual([
        cartCookieName,
        shopperCookieName,
        sessionCookieName,
        csrfCookieName,
        "flash-…",
      ]);
    }
    expect(textOf(main((await get("/cookies")).body))).toContain("tonen we geen cookiemelding");
  });

  it("the accessibility statement names the standard, how it is tested, feedback and the enforcement bodies", async () => {
    const de = textOf(main((await get("/barrierefreiheit")).body));
    expect(de).toContain("WCAG) 2.1, Stufe AA");
    expect(de).toContain("mit axe");
    expect(de).toContain(company.customerService.de.email);
    expect(de).toContain(
      "Marktüberwachungsstelle der Länder für die Barrierefreiheit von Produkten und Dienstleistungen (MLBF)",
    );
    expect(textOf(main((await get("/toegankelijkheidsverklaring")).body))).toContain(
      "Autoriteit Consument & Markt (ACM)",
    );
  });
});

describe("the product page", () => {
  it("says with every price that it includes VAT, and whether shipping comes on top", async () => {
    for (const [url, vat, extra, shippingPage] of [
      [
        "/assortiment/fotoafdrukken/klassieke-fotoafdrukken",
        "incl. btw",
        "+ verzendkosten",
        "/verzending-en-levering",
      ],
      [
        "/sortiment/fotoabzuege/klassische-fotoabzuege",
        "inkl. MwSt.",
        "zzgl. Versandkosten",
        "/versand-und-lieferung",
      ],
    ] as const) {
      const offer = /<div class="product__offer"[\s\S]*?<\/div>/.exec(main((await get(url)).body))?.[0] ?? "";
      expect(textOf(offer)).toContain(vat);
      expect(offer).toContain(`<a href="${shippingPage}">${extra}</a>`);
    }
    // Free shipping says so instead.
    const book =
      /<div class="product__offer"[\s\S]*?<\/div>/.exec(
        (await get("/assortiment/fotoboeken/exclusief-fotoboek")).body,
      )?.[0] ?? "";
    expect(textOf(book)).toContain("+ Gratis verzending");
    expect(book).not.toContain("+ verzendkosten");
    // Every card of a listing; the cart's tips, whose cards put a product in the cart at once, are the same card.
    const listing = main((await get("/assortiment/fotoafdrukken")).body);
    const cards = listing.match(/<article class="product-card">[\s\S]*?<\/article>/g) ?? [];
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(textOf(card)).toContain("incl. btw");
      expect(textOf(card)).toMatch(/\+ (verzendkosten|Gratis verzending)/);
    }
  });

  it("says near add-to-cart that personalised products cannot be withdrawn, with the terms and withdrawal links", async () => {
    for (const [url, sentence, terms, withdrawal] of [
      [
        "/assortiment/fotoboeken/exclusief-fotoboek",
        "geldt geen herroepingsrecht",
        "/algemene-voorwaarden",
        "/herroepingsrecht",
      ],
      [
        "/sortiment/fotobuecher/exklusives-fotobuch",
        "besteht kein Widerrufsrecht",
        "/agb",
        "/widerrufsbelehrung",
      ],
    ] as const) {
      const html = main((await get(url)).body);
      // Right after the add-to-cart form's region, before anything else the page shows.
      const after = html.slice(html.indexOf('id="add-to-cart-form"'));
      const notice = /<div class="withdrawal-notice">[\s\S]*?<\/div>/.exec(after)?.[0] ?? "";
      expect(after.indexOf('class="withdrawal-notice"')).toBeLessThan(
        after.indexOf('class="product__share"'),
      );
      expect(textOf(notice)).toContain(sentence);
      expect(notice).toContain(`href="${terms}"`);
      expect(notice).toContain(`href="${withdrawal}"`);
    }
  });
});

describe("the footer on every page", () => {
  const samples = [
    "/",
    "/de",
    "/assortiment/fotoboeken/exclusief-fotoboek",
    "/sortiment/fotobuecher/exklusives-fotobuch",
    "/winkelwagen/inhoud",
    "/klantenservice",
    "/bestaat-niet-meer",
    ...pages.flatMap((p) => [p.nl[0], p.de[0]]),
  ];

  it("links every legal page in the page's language, and names the seller", async () => {
    for (const url of samples) {
      const res = await get(url);
      const locale = /<html lang="(\w+)"/.exec(res.body)?.[1] as "nl" | "de";
      const links = footer(res.body);
      expect(links, url).toContain(
        locale === "nl" ? '<h2 id="footer-legal">Juridisch</h2>' : '<h2 id="footer-legal">Rechtliches</h2>',
      );
      for (const page of pages)
        expect(links, `${url} links ${page.id}`).toContain(`href="${page[locale][0]}"`);
      expect(textOf(links), url).toContain(`${company.name}, ${company.address.street}`);
      expect(textOf(links), url).toContain(company.vatId);
    }
  });
});
