import { afterEach, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";

let shop: TestShop | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

describe("the pattern library", () => {
  it("is off in production unless it is asked for", async () => {
    shop = await testShop();
    expect((await shop.app.inject({ url: "/patroonbibliotheek" })).statusCode).toBe(404);
  });

  it("shows every hook live with its markup, in Dutch and in German", async () => {
    shop = await testShop({ env: { PATTERN_LIBRARY: "true" } });
    const nl = await shop.app.inject({ url: "/patroonbibliotheek" });
    const de = await shop.app.inject({ url: "/musterbibliothek" });
    expect(nl.statusCode).toBe(200);
    expect(de.statusCode).toBe(200);
    expect(de.body).toMatch(/<html lang="de"/);
    for (const hook of [
      "data-sticky-header",
      'data-island="cart-count"',
      "data-lazy-src",
      "data-analytics=",
      "data-relative-time=",
      "product-card",
      "language-switcher",
      'data-island="faq"',
      'data-island="delivery-times"',
      "data-ajax-announce=",
      'class="checkout-steps"',
      'class="service-contact"',
    ]) {
      expect(nl.body, hook).toContain(hook);
    }
    // Live example and its escaped markup.
    expect(nl.body).toContain('<button type="button" class="button" data-analytics="product_card.click"');
    expect(nl.body).toContain("&lt;button type=&quot;button&quot; class=&quot;button&quot; data-analytics=");
    expect(nl.body).toContain("5 minuten geleden");
    expect(de.body).toContain("vor 5 Minuten");
    expect(de.body).toContain("Noch 3 Tage gültig");
    expect(nl.body).toContain('<script type="application/json" data-props-for="relative-time">{"texts":{');
    // The example form's password field: the strength meter's words in its box's props.
    expect(nl.body).toMatch(
      /data-strength-for="example-password" data-props="\{&quot;texts&quot;:\{&quot;hint&quot;/,
    );
  });

  it("shows the subscription page's widgets live: tabs, modals, tooltip, transform panel and photo uploader", async () => {
    shop = await testShop({ env: { PATTERN_LIBRARY: "true" } });
    const nl = await shop.app.inject({ url: "/patroonbibliotheek" });
    for (const hook of [
      'data-island="tabs"',
      'section class="tabs__section" id="tweede"',
      'data-island="modal"',
      '<a class="modal-trigger__link" href="/abonnement/uitleg/opzeggen">',
      "data-modal-source",
      'details class="tooltip" data-island="tooltip"',
      'details class="transform" id="pattern-transform" data-island="transform"',
      'data-island="photo-upload">',
      '"url":"/fotoboek-maken/fotos"',
      'action="/fotoboek-maken" enctype="multipart/form-data"',
    ]) {
      expect(nl.body, hook).toContain(hook);
    }
    const de = await shop.app.inject({ url: "/musterbibliothek" });
    expect(de.body).toContain('"url":"/fotobuch-gestalten/fotos"');
    expect(de.body).toContain("Registerkarten");
  });

  it("is on by default in development", async () => {
    shop = await testShop({ env: { NODE_ENV: "development" } });
    expect((await shop.app.inject({ url: "/musterbibliothek" })).statusCode).toBe(200);
  });
});

describe("the ajax hook's form example", () => {
  const ajax = { "x-requested-with": "XMLHttpRequest" };

  it("answers a name in place, and without a name gives the form back with its message (422)", async () => {
    shop = await testShop({ env: { PATTERN_LIBRARY: "true" } });
    const browser = new BrowserSession(shop.app);
    await browser.get("/patroonbibliotheek");
    const saved = await browser.form("/patroonbibliotheek/groet", { name: "Anna", action: "save" }, ajax);
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain("Opgeslagen: Anna.");
    expect(saved.body).toContain('id="ajax-form-region"');
    expect(saved.body).not.toContain("<html");

    const refused = await browser.form("/patroonbibliotheek/groet", { name: "  ", action: "check" }, ajax);
    expect(refused.statusCode).toBe(422);
    expect(refused.headers["x-ajax-fragment"]).toBe("true");
    expect(refused.body).toContain("Vul een naam in.");
    expect(refused.body).toContain('aria-invalid="true"');
  });

  it("without JavaScript comes back to the library with the answer, in German too", async () => {
    shop = await testShop({ env: { PATTERN_LIBRARY: "true" } });
    const browser = new BrowserSession(shop.app);
    await browser.get("/musterbibliothek");
    const posted = await browser.form("/musterbibliothek/gruss", { name: "Jörg", action: "check" });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toMatch(/^\/musterbibliothek\?greeting=J%C3%B6rg&action=check#ajax$/);
    const page = await browser.follow(posted);
    expect(page.body).toContain("Jörg ist ein schöner Name.");
    expect(page.body).toContain('value="Jörg"');
  });
});

describe("the validation hook's rule examples", () => {
  const ajax = { "x-requested-with": "XMLHttpRequest" };

  /** One value per field that breaks its rule, on a page of the given language. */
  const bad = (locale: "nl" | "de") => ({
    required: "   ",
    email: "anna@",
    url: "www.example.nl",
    date: locale === "nl" ? "31-02-2026" : "28-02-2026",
    number: "1,234.5",
    digits: "06-1234",
    creditcard: "4111 1111 1111 1112",
    original: "Zomer",
    repeat: "zomer",
    minlength: "ab",
    maxlength: "abcdefghijk",
    rangelength: "ab",
    min: "23,5",
    max: "100,5",
    range: "13",
    regex: "foto-2026",
    country: locale === "nl" ? "NL" : "DE",
    postcode: locale === "nl" ? "10115" : "1234 AB",
    password: "kort",
  });

  const good = (locale: "nl" | "de") => ({
    required: "Anna",
    email: "anna@example.nl",
    url: "https://www.example.nl/fotoboeken",
    date: locale === "nl" ? "28/2/26" : "28.02.2026",
    number: "1.234,56",
    digits: "0612345678",
    creditcard: "4111 1111 1111 1111",
    original: "Zomer",
    repeat: "Zomer",
    minlength: "Zomer",
    maxlength: "Zomer",
    rangelength: "Zomer",
    min: "24,5",
    max: "100",
    range: "12",
    regex: "FOTO-2026",
    country: locale === "nl" ? "NL" : "DE",
    postcode: locale === "nl" ? "1234 AB" : "10115",
    password: "Zomer aan zee 2026!",
  });

  const messages = {
    nl: [
      "Dit is een verplicht veld.",
      "Vul hier een geldig e-mailadres in.",
      "Vul hier een geldige URL in.",
      "Vul hier een geldige datum in.",
      "Vul hier een geldig getal in.",
      "Vul hier alleen getallen in.",
      "Vul hier een geldig creditcardnummer in.",
      "Vul hier dezelfde waarde in.",
      "Vul hier minimaal 3 tekens in.",
      "Vul hier maximaal 10 tekens in.",
      "Vul hier een waarde in van minimaal 3 en maximaal 10 tekens.",
      "Vul hier een waarde in groter dan of gelijk aan 24.",
      "Vul hier een waarde in kleiner dan of gelijk aan 100.",
      "Vul hier een waarde in van minimaal 1 en maximaal 12.",
      "Controleer dit veld.",
      "Vul een Nederlandse postcode in, zoals 1234 AB.",
      "Kies een sterker wachtwoord.",
    ],
    de: [
      "Dieses Feld ist ein Pflichtfeld.",
      "Geben Sie bitte eine gültige E-Mail-Adresse ein.",
      "Geben Sie bitte eine gültige URL ein.",
      "Geben Sie bitte ein gültiges Datum ein.",
      "Geben Sie bitte eine gültige Zahl ein.",
      "Geben Sie bitte nur Ziffern ein.",
      "Geben Sie bitte eine gültige Kreditkarten-Nummer ein.",
      "Wiederholen Sie bitte denselben Wert.",
      "Geben Sie bitte mindestens 3 Zeichen ein.",
      "Geben Sie bitte maximal 10 Zeichen ein.",
      "Geben Sie bitte mindestens 3 und maximal 10 Zeichen ein.",
      "Geben Sie bitte einen Wert größer oder gleich 24 ein.",
      "Geben Sie bitte einen Wert kleiner oder gleich 100 ein.",
      "Geben Sie bitte einen Wert zwischen 1 und 12 ein.",
      "Korrigieren Sie bitte dieses Feld.",
      "Geben Sie eine fünfstellige deutsche Postleitzahl ein, zum Beispiel 10115.",
      "Wählen Sie bitte ein sichereres Passwort.",
    ],
  };
  const library = { nl: "/patroonbibliotheek", de: "/musterbibliothek" } as const;
  const rulesUrl = { nl: "/patroonbibliotheek/regels", de: "/musterbibliothek/regeln" } as const;
  const summaryItems = (body: string) =>
    [...(/id="rules-summary"[\s\S]*?<\/ul>/.exec(body)?.[0] ?? "").matchAll(/<li>/g)].length;

  it("shows a field for every rule, with how numbers and dates are written, in both languages", async () => {
    shop = await testShop({ env: { PATTERN_LIBRARY: "true" } });
    const nl = (await shop.app.inject({ url: library.nl })).body;
    const de = (await shop.app.inject({ url: library.de })).body;
    for (const rule of ["required", "email", "url", "date", "number", "digits", "creditcard", "equalto"])
      expect(nl, rule).toContain(`data-val-${rule}=`);
    for (const rule of [
      "minlength",
      "maxlength",
      "length",
      "min",
      "max",
      "range",
      "regex",
      "remote",
      "password",
    ])
      expect(nl, rule).toContain(`data-val-${rule}=`);
    expect(nl).toContain('data-example="validation:rules"');
    expect(nl).toContain('id="rules-password" name="password"');
    expect(nl).toMatch(/data-strength-for="rules-password"/);
    expect(nl).toContain("1.234,56 of 1234,5");
    expect(de).toContain("nur mit Punkten");
    expect(de).toContain('action="/musterbibliothek/regeln#rules-form-region"');
    // The remote example starts at the page's own country.
    expect(nl).toMatch(/<option value="NL" selected>Nederland<\/option>/);
    expect(de).toMatch(/<option value="DE" selected>Deutschland<\/option>/);
  });

  it.each(["nl", "de"] as const)(
    "answers bad values with 422, every rule's message and every value kept, without JavaScript (%s)",
    async (locale) => {
      shop = await testShop({ env: { PATTERN_LIBRARY: "true" } });
      const browser = new BrowserSession(shop.app);
      await browser.get(library[locale]);
      const posted = await browser.form(rulesUrl[locale], bad(locale));
      expect(posted.statusCode).toBe(422);
      expect(posted.body).toContain(`<html lang="${locale}"`);
      expect(summaryItems(posted.body)).toBe(messages[locale].length);
      for (const text of messages[locale]) expect(posted.body, text).toContain(text);
      for (const [name, value] of Object.entries(bad(locale))) {
        if (name === "password" || name === "country") continue;
        expect(posted.body, name).toMatch(new RegExp(`id="rules-${name}"[^>]*value="${value}"`));
      }
      expect(posted.body).toMatch(/id="rules-url"[^>]*aria-invalid="true"/);
    },
  );

  it.each(["nl", "de"] as const)(
    "accepts good values written the page's way, and says so after the redirect (%s)",
    async (locale) => {
      shop = await testShop({ env: { PATTERN_LIBRARY: "true" } });
      const browser = new BrowserSession(shop.app);
      await browser.get(library[locale]);
      const posted = await browser.form(rulesUrl[locale], good(locale));
      expect(posted.statusCode).toBe(303);
      expect(posted.headers.location).toBe(`${library[locale]}?rules=ok#rules-form-region`);
      const page = await browser.follow(posted);
      expect(page.body).toContain(
        locale === "nl"
          ? "Alles klopt: elk ingevuld veld voldoet aan zijn regel"
          : "Alles stimmt: Jedes ausgefüllte Feld",
      );
    },
  );

  it("answers an ajax post with the form's region: 422 with the messages, or the thanks with the values", async () => {
    shop = await testShop({ env: { PATTERN_LIBRARY: "true" } });
    const browser = new BrowserSession(shop.app);
    await browser.get(library.nl);
    const refused = await browser.form(rulesUrl.nl, { ...good("nl"), url: "www.example.nl" }, ajax);
    expect(refused.statusCode).toBe(422);
    expect(refused.headers["x-ajax-fragment"]).toBe("true");
    expect(refused.body).not.toContain("<html");
    expect(summaryItems(refused.body)).toBe(1);
    expect(refused.body).toContain("Vul hier een geldige URL in.");
    expect(refused.body).toMatch(/id="rules-number"[^>]*value="1.234,56"/);

    const accepted = await browser.form(rulesUrl.nl, good("nl"), ajax);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.body).toContain("Alles klopt");
    expect(accepted.body).toMatch(/id="rules-regex"[^>]*value="FOTO-2026"/);
    expect(summaryItems(accepted.body)).toBe(0);
  });

  it("reads numbers and dates in the page's language: what is right in Dutch is wrong in German", async () => {
    shop = await testShop({ env: { PATTERN_LIBRARY: "true" } });
    const browser = new BrowserSession(shop.app);
    await browser.get(library.de);
    const dutchDate = await browser.form(rulesUrl.de, { ...good("de"), date: "28-02-2026" }, ajax);
    expect(dutchDate.statusCode).toBe(422);
    expect(dutchDate.body).toContain("Geben Sie bitte ein gültiges Datum ein.");
    const english = await browser.form(rulesUrl.de, { ...good("de"), min: "24.5" }, ajax);
    expect(english.statusCode).toBe(422);
    expect(english.body).toContain("Geben Sie bitte einen Wert größer oder gleich 24 ein.");
  });
});
