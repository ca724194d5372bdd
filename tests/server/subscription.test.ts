import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../server/domain/password-hash.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { multipart, photos } from "../support/photos.ts";

let shop: TestShop;
beforeAll(async () => {
  // Every sign-up here comes from one address; the limit has a test of its own.
  shop = await testShop({ env: { SIGNUP_RATE_LIMIT: "1000" } });
});
afterAll(() => shop.close());

const plain = (s: string) => s.replace(/\s+/g, " ");
const strongPassword = "Zomer aan zee 2026!";
const signup = (
  browser: BrowserSession,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) =>
  browser.form(
    "/abonnement/aanmelden",
    {
      plan: "plus",
      country: "NL",
      name: "Anna de Vries",
      email: "anna@example.nl",
      password: strongPassword,
      passwordConfirm: strongPassword,
      ...fields,
    },
    headers,
  );

describe("the subscription page", () => {
  it("shows plans, uploads and questions as tabs that work without JavaScript: links first, then every panel", async () => {
    const res = await shop.app.inject({ url: "/abonnement" });
    expect(res.statusCode).toBe(200);
    const html = plain(res.body);
    expect(html).toContain(
      '<ul class="tabs__index-list"> <li><a href="#abonnementen">Abonnementen</a></li> <li><a href="#uploads">Uploads</a></li> <li><a href="#vragen">Vragen</a></li> </ul>',
    );
    for (const [id, label] of [
      ["abonnementen", "Abonnementen"],
      ["uploads", "Uploads"],
      ["vragen", "Vragen"],
    ]) {
      expect(html).toContain(
        `<section class="tabs__section" id="${id}" aria-labelledby="${id}-title" data-tab-label="${label}">`,
      );
    }
    // The "view uploads" trigger in the first tab is a link to the second.
    expect(html).toMatch(
      /id="abonnementen"[\s\S]*<a href="#uploads"[^>]*>Bekijk je uploads<\/a>[\s\S]*id="uploads"/,
    );
  });

  it("lists plans with their monthly price and what is included, and offers with their remaining validity", async () => {
    const res = await shop.app.inject({ url: "/abonnement" });
    const html = plain(res.body);
    expect(html).toContain("€ 2,99 per maand");
    expect(html).toContain("€ 5,99 per maand");
    expect(html).toContain("250 GB opslag in volle resolutie");
    expect(html).toContain("20 gratis afdrukken per maand");
    expect(html).toContain("10% korting op fotoboeken");
    expect(html).toContain("1 TB opslag in volle resolutie");
    expect(html).toContain("Eerste 3 maanden € 2,99 per maand");
    expect(html).toMatch(
      /<time datetime="[^"]+" data-relative-time="remaining" title="[^"]+">Nog \d+ (dagen|dag|uur|minuten|minuut) geldig<\/time>/,
    );
    expect(html).toContain("Meest gekozen");
  });

  it("says the first month is paid online, and plainly that monthly payments do not exist yet", async () => {
    const res = await shop.app.inject({ url: "/abonnement" });
    expect(res.body).not.toContain("nog niet mogelijk");
    expect(res.body).toContain("Je betaalt de eerste maand meteen online");
    expect(res.body).toContain("Je abonnement loopt elke maand vanzelf door");
    const de = await shop.app.inject({ url: "/abo" });
    expect(de.body).not.toContain("noch nicht möglich");
    expect(de.body).toContain("Den ersten Monat bezahlen Sie gleich online");
    expect(de.body).toContain("Ihr Abo verlängert sich jeden Monat automatisch");
  });

  it("explains terms with tooltips, and opens explanations in modals whose links lead to pages", async () => {
    const res = await shop.app.inject({ url: "/abonnement" });
    expect(res.body).toContain('<details class="tooltip" data-island="tooltip">');
    expect(res.body).toContain('<span class="visually-hidden">Uitleg: opslag</span>');
    expect(res.body).toContain(
      '<a class="modal-trigger__link" href="/abonnement/uitleg/opzeggen">Meer over opzeggen</a>',
    );
    expect(res.body).toContain(
      '<a class="modal-trigger__link" href="#compare-plans">Vergelijk alle abonnementen</a>',
    );
    expect(res.body).toContain('<section class="modal-source" id="compare-plans"');

    const page = await shop.app.inject({ url: "/abonnement/uitleg/opzeggen" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1 id="info-title">Opzeggen en je foto&#39;s</h1>');
    expect(page.body).toMatch(/hreflang="de" href="[^"]*\/abo\/erklaerung\/kuendigung"/);
    const fragment = await shop.app.inject({
      url: "/abonnement/uitleg/opzeggen",
      headers: { "x-requested-with": "XMLHttpRequest" },
    });
    expect(fragment.body.trim().startsWith('<div class="info">')).toBe(true);
    expect(fragment.body).not.toContain("<html");
    expect(fragment.headers.vary).toContain("X-Requested-With");
    expect((await shop.app.inject({ url: "/abonnement/uitleg/bestaat-niet" })).statusCode).toBe(404);
    expect((await shop.app.inject({ url: "/abo/erklaerung/kuendigung" })).body).toContain(
      "Kündigung und Ihre Fotos",
    );
  });

  it("shows this browser's uploads, newest first, with relative times, and nobody else's", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/fotoboek-maken?fotoboek=exclusief-fotoboek");
    for (const name of ["eerste.jpg", "tweede.png"]) {
      const data = name.endsWith("png") ? await photos.png() : await photos.jpeg();
      await browser.post(
        "/fotoboek-maken/fotos",
        multipart([{ name: "photo", file: { filename: name, data } }]),
        {
          "x-requested-with": "XMLHttpRequest",
          "x-csrf-token": browser.token,
        },
      );
    }
    const mine = plain((await browser.get("/abonnement")).body);
    expect(mine).toContain("2 foto&#39;s");
    expect(mine.indexOf("tweede.png")).toBeLessThan(mine.indexOf("eerste.jpg"));
    expect(mine).toMatch(
      /Geüpload <time datetime="[^"]+" data-relative-time="ago" title="[^"]+">zojuist<\/time>/,
    );
    expect(mine).toMatch(
      /<img class="uploads__image" src="\/uploads\/[\w-]{22}\/thumbnail\.jpg" alt="eerste\.jpg"/,
    );

    const stranger = plain((await shop.app.inject({ url: "/abonnement" })).body);
    expect(stranger).not.toContain("eerste.jpg");
    expect(stranger).toContain("Je hebt nog geen foto&#39;s geüpload.");
  });
});

describe("signing up", () => {
  it("keeps the sign-up with a scrypt hash, mails the link that confirms it and tells the shopper to look for it", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/abonnement?abonnement=premium");
    const res = await signup(browser, { plan: "premium", email: "Bea@Example.nl" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/abonnement/welkom");
    const welcome = plain((await browser.follow(res)).body);
    expect(welcome).toContain("Welkom, Anna de Vries!");
    expect(welcome).toContain(
      "We hebben een e-mail gestuurd naar Bea@Example.nl. Open de link daarin om je e-mailadres te bevestigen en de eerste maand van je abonnement Premium te betalen.",
    );
    expect(welcome).toContain("De link werkt 24 uur.");
    expect(welcome).toContain(
      "De eerste 3 maanden kost je abonnement € 4,99 per maand, daarna € 9,99 per maand.",
    );

    // Nothing is a subscription until the address is confirmed.
    expect(
      await shop.database.db
        .selectFrom("accounts")
        .selectAll()
        .where("email_key", "=", "bea@example.nl")
        .execute(),
    ).toEqual([]);
    expect(await shop.database.db.selectFrom("subscriptions").selectAll().execute()).toEqual([]);
    const row = await shop.database.db
      .selectFrom("signups")
      .selectAll()
      .where("email_key", "=", "bea@example.nl")
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$15\$8\$3\$/);
    expect(row.password_hash).not.toContain(strongPassword);
    expect(await verifyPassword(strongPassword, row.password_hash)).toBe(true);
    expect(row.plan_id).toBe("premium");
    const mail = await shop.database.db
      .selectFrom("outbox")
      .selectAll()
      .where("to_address", "=", "Bea@Example.nl")
      .executeTakeFirstOrThrow();
    expect(mail.kind).toBe("subscription-confirm");
    expect(mail.subject).toBe("Bevestig je aanmelding voor het fotoabonnement");
    expect(mail.text_body).toContain("Daarna betaal je de eerste maand (€\u00a04,99) online");
    expect(mail.text_body).toMatch(/http:\/\/localhost(:\d+)?\/abonnement\/bevestigen\/[\w-]{43}\n/);
  });

  it("preselects the plan a 'choose' link names", async () => {
    const res = await shop.app.inject({ url: "/abonnement?abonnement=basis" });
    expect(res.body).toContain('<option value="basis" selected>Basis</option>');
    const plain = await shop.app.inject({ url: "/abonnement" });
    expect(plain.body).toContain('<option value="plus" selected>Plus</option>');
  });

  it("answers the e-mail check on the format only: the same for a subscribed and a new address, in the page's language", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/abonnement");
    expect((await signup(browser, { email: "daan@example.nl" })).statusCode).toBe(303);
    const free = await shop.app.inject({ url: "/api/abonnement-email-controle?email=nieuw%40example.nl" });
    const taken = await shop.app.inject({ url: "/api/abonnement-email-controle?email=DAAN%40example.nl" });
    expect(free.json()).toBe(true);
    expect(taken.json()).toBe(true);
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.headers["cache-control"]).toBe("no-store");
    const de = await shop.app.inject({ url: "/api/abo-email-pruefung?email=daan%40example.nl" });
    expect(de.json()).toBe(true);
    const malformed = await shop.app.inject({ url: "/api/abonnement-email-controle?email=daan%40" });
    expect(malformed.json()).toBe("Vul hier een geldig e-mailadres in.");
    const tooLong = await shop.app.inject({
      url: `/api/abo-email-pruefung?email=${"a".repeat(250)}%40example.de`,
    });
    expect(tooLong.json()).toMatch(/254/);
  });

  it("writes the rules into the form: no check of the address against subscriptions, password rule and strength meter", async () => {
    const res = await shop.app.inject({ url: "/abonnement" });
    expect(res.body).not.toContain("data-val-remote");
    expect(res.body).toMatch(/id="subscription-email"[^>]*data-val-email=/);
    expect(res.body).toContain('data-val-password-min="8"');
    expect(res.body).toMatch(/data-password-strength data-strength-min="8" data-strength-ban-mode="exact"/);
    expect(res.body).toContain('data-val-equalto-other="password"');
  });

  it("checks every field on the server too, in German at the German address", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/abo");
    const res = await browser.form("/abo/anmelden", {
      plan: "gold",
      country: "DE",
      name: "",
      email: "geen-adres",
      password: "kort",
      passwordConfirm: "anders",
    });
    expect(res.statusCode).toBe(422);
    const html = plain(res.body);
    expect(html).toContain("Wählen Sie bitte eine der Möglichkeiten.");
    expect(html).toContain("Dieses Feld ist ein Pflichtfeld.");
    expect(html).toContain("Geben Sie bitte eine gültige E-Mail-Adresse ein.");
    expect(html).toContain("Wiederholen Sie bitte denselben Wert.");
    expect(html).not.toMatch(/Vul hier|Dit is een/);
    expect(html).toMatch(/id="subscription-email"[^>]*value="geen-adres"/);
  });

  it("says beside each plan's price that it includes VAT, in both languages", async () => {
    const dutch = plain((await new BrowserSession(shop.app).get("/abonnement")).body);
    expect(dutch).toMatch(
      /<p class="plan__price">€\s9,99 per maand <span class="plan__vat">incl\. btw<\/span><\/p>/,
    );
    const german = plain((await new BrowserSession(shop.app).get("/abo")).body);
    expect(german).toMatch(
      /<p class="plan__price">9,99\s€ pro Monat <span class="plan__vat">inkl\. MwSt\.<\/span><\/p>/,
    );
  });

  it("asks where the subscriber lives, the page's country chosen, and refuses a country the shop does not serve", async () => {
    const browser = new BrowserSession(shop.app);
    const dutch = plain((await browser.get("/abonnement")).body);
    expect(dutch).toContain("Land waar je woont");
    expect(dutch).toContain("de btw erop is die van het land waar je woont");
    expect(dutch).toMatch(/<option value="NL" selected>Nederland<\/option>/);
    const german = plain((await new BrowserSession(shop.app).get("/abo")).body);
    expect(german).toContain("Land, in dem Sie wohnen");
    expect(german).toMatch(/<option value="DE" selected>Deutschland<\/option>/);

    const res = await signup(browser, { country: "BE", email: "bea@example.nl" });
    expect(res.statusCode).toBe(422);
    const html = plain(res.body);
    expect(html).toContain("Kies een van de mogelijkheden.");
    expect(html).toMatch(/id="subscription-email"[^>]*value="bea@example\.nl"/);
    expect(
      await shop.database.db
        .selectFrom("signups")
        .select("email")
        .where("email", "=", "bea@example.nl")
        .execute(),
    ).toEqual([]);

    // The other country, chosen on the Dutch page, is what the sign-up keeps.
    expect((await signup(browser, { country: "DE", email: "ben@example.nl" })).statusCode).toBe(303);
    const kept = await shop.database.db
      .selectFrom("signups")
      .select(["country", "locale"])
      .where("email", "=", "ben@example.nl")
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ country: "DE", locale: "nl" });
  });

  it("answers an enhanced sign-up with the fragment: the welcome text, or the form with its errors", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/abonnement");
    const ajax = { "x-requested-with": "XMLHttpRequest" };
    const bad = await signup(browser, { email: "" }, ajax);
    expect(bad.statusCode).toBe(422);
    expect(bad.body.trim().startsWith("<form")).toBe(true);
    const good = await signup(browser, { email: "eva@example.nl", name: "Eva" }, ajax);
    expect(good.statusCode).toBe(200);
    expect(good.body).toContain("Welkom, Eva!");
    expect(good.body).not.toContain("<html");
  });

  it("after a refused sign-up without JavaScript, offers the form's address in the other language, which leads to the form", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/abonnement");
    const refused = await signup(browser, { email: "geen-adres" });
    expect(refused.statusCode).toBe(422);
    // The page stays at the post's address; the language switcher and hreflang name it in German.
    expect(refused.body).toMatch(/hreflang="de" href="[^"]*\/abo\/anmelden"/);
    for (const [address, form] of [
      ["/abo/anmelden", "/abo#anmelden"],
      ["/abonnement/aanmelden", "/abonnement#aanmelden"],
    ]) {
      const visit = await shop.app.inject({ url: address });
      expect(visit.statusCode).toBe(303);
      expect(visit.headers.location).toBe(form);
    }
    const landed = await shop.app.inject({ url: "/abo" });
    expect(landed.body).toContain('id="anmelden"');
  });

  it("sends a shopper without a subscription from the welcome address to the subscription page", async () => {
    const res = await shop.app.inject({ url: "/abonnement/welkom" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/abonnement");
  });
});

describe("signing up many times from one client", () => {
  it("answers 429 with the page in the shopper's language, keeping what was typed, before any password is hashed", async () => {
    const limited = await testShop({ env: { SIGNUP_RATE_LIMIT: "2" } });
    try {
      const browser = new BrowserSession(limited.app);
      await browser.get("/abo");
      for (const email of ["f1@example.nl", "f2@example.nl"]) {
        const res = await browser.form("/abo/anmelden", {
          plan: "plus",
          country: "DE",
          name: "Fenna",
          email,
          password: strongPassword,
          passwordConfirm: strongPassword,
        });
        expect(res.statusCode).toBe(303);
      }
      const third = await browser.form("/abo/anmelden", {
        plan: "premium",
        country: "DE",
        name: "Fenna",
        email: "f3@example.nl",
        password: strongPassword,
        passwordConfirm: strongPassword,
      });
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers["retry-after"])).toBeGreaterThan(0);
      const html = plain(third.body);
      expect(html).toContain('<html lang="de"');
      expect(html).toContain("wurde kurz hintereinander oft versucht, ein Abo abzuschließen");
      expect(html).not.toMatch(/Vanaf deze verbinding/);
      expect(html).toMatch(/id="subscription-email"[^>]*value="f3@example\.nl"/);
      expect(html).toContain('<option value="premium" selected>');
      const stored = await limited.database.db
        .selectFrom("signups")
        .select("email")
        .where("email", "=", "f3@example.nl")
        .execute();
      expect(stored).toEqual([]);

      // With JavaScript the form's region comes back with the message, to be shown in place.
      const ajax = await browser.form(
        "/abo/anmelden",
        { plan: "plus", country: "DE", name: "Fenna", email: "f4@example.nl" },
        { "x-requested-with": "XMLHttpRequest" },
      );
      expect(ajax.statusCode).toBe(429);
      expect(ajax.headers["x-ajax-fragment"]).toBe("true");
      expect(ajax.body.trim().startsWith("<form")).toBe(true);
      expect(ajax.body).toContain("Warten Sie ein paar Minuten");
    } finally {
      await limited.close();
    }
  });
});
