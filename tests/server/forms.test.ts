import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop({ env: { PATTERN_LIBRARY: "true" } });
});
afterAll(() => shop.close());

/** Loads a page with a form, as a browser would: its cookies and the hidden token. */
async function session(url = "/patroonbibliotheek") {
  const res = await shop.app.inject({ url });
  const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? "";
  return { cookie, token };
}

const good = {
  name: "Anna de Vries",
  email: "anna@example.nl",
  country: "NL",
  postcode: "1234 ab",
  password: "Zomer aan zee 2026!",
  passwordConfirm: "Zomer aan zee 2026!",
};

async function submit(
  fields: Record<string, string>,
  options: { ajax?: boolean; url?: string; lang?: string } = {},
) {
  const { cookie, token } = await session(
    options.lang === "de" ? "/musterbibliothek" : "/patroonbibliotheek",
  );
  return shop.app.inject({
    method: "POST",
    url:
      options.url ?? (options.lang === "de" ? "/musterbibliothek/formular" : "/patroonbibliotheek/formulier"),
    headers: {
      cookie,
      "content-type": "application/x-www-form-urlencoded",
      ...(options.ajax ? { "x-requested-with": "XMLHttpRequest" } : {}),
    },
    payload: new URLSearchParams({ ...fields, _csrf: token }).toString(),
  });
}

describe("a form defined once on the server", () => {
  it("writes its rules and messages as data-val attributes", async () => {
    const res = await shop.app.inject({ url: "/patroonbibliotheek" });
    expect(res.body).toContain('data-val-required="Dit is een verplicht veld."');
    expect(res.body).toContain('data-val-email="Vul hier een geldig e-mailadres in."');
    expect(res.body).toContain(
      'data-val-remote-url="/api/postcode-controle" data-val-remote-additionalfields="country"',
    );
    expect(res.body).toContain('data-val-equalto-other="password"');
    expect(res.body).toMatch(/data-password-strength data-strength-min="8" data-strength-ban-mode="exact"/);
    const de = await shop.app.inject({ url: "/musterbibliothek" });
    expect(de.body).toContain('data-val-required="Dieses Feld ist ein Pflichtfeld."');
    expect(de.body).toContain('data-val-remote-url="/api/postleitzahl-pruefung"');
  });

  describe("when JavaScript is unavailable", () => {
    it("answers bad input with 422, the whole page, a summary, inline messages and every value kept", async () => {
      const res = await submit({ ...good, email: "anna@", postcode: "0000 XX", passwordConfirm: "other" });
      expect(res.statusCode).toBe(422);
      expect(res.body).toMatch(/<html lang="nl"/);
      expect(res.body).toContain("validation-summary-errors");
      expect(res.body).toContain('<a href="#example-email">Vul hier een geldig e-mailadres in.</a>');
      expect(res.body).toContain(
        '<a href="#example-postcode">Vul een Nederlandse postcode in, zoals 1234 AB.</a>',
      );
      expect(res.body).toContain('<a href="#example-passwordConfirm">Vul hier dezelfde waarde in.</a>');
      expect(res.body).toMatch(/id="example-email"[^>]*aria-invalid="true"[^>]*value="anna@"/);
      expect(res.body).toContain('value="Anna de Vries"');
      expect(res.body).toContain('value="0000 XX"');
      expect(res.body).toMatch(/<option value="NL" selected>/);
      // Passwords are never written back into the page.
      expect(res.body).not.toContain("Zomer aan zee 2026!");
    });

    it("refuses a weak or common password the same way the meter judges it", async () => {
      const res = await submit({ ...good, password: "wachtwoord", passwordConfirm: "wachtwoord" });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain("Kies een sterker wachtwoord");
    });

    it("redirects after a good post (303), to a page that says so", async () => {
      const res = await submit(good);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe("/patroonbibliotheek?thanks=Anna+de+Vries#ajax-form");
      const page = await shop.app.inject({ url: res.headers.location as string });
      expect(page.body).toContain("Bedankt, Anna de Vries.");
    });

    it("speaks German on the German page", async () => {
      const res = await submit({ ...good, country: "DE", postcode: "1234" }, { lang: "de" });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain("Geben Sie eine fünfstellige deutsche Postleitzahl ein");
      expect(res.body).toContain("Es gibt ein Problem");
    });

    it("treats a tampered body (a field twice, an unknown country) as input to check, not a crash", async () => {
      const { cookie, token } = await session();
      const res = await shop.app.inject({
        method: "POST",
        url: "/patroonbibliotheek/formulier",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        payload: `name=a&name=b&country=FR&_csrf=${encodeURIComponent(token)}`,
      });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('value="b"');
      expect(res.body).toContain("Kies een van de mogelijkheden.");
    });

    it("refuses a post without its CSRF token", async () => {
      const res = await shop.app.inject({
        method: "POST",
        url: "/patroonbibliotheek/formulier",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(good).toString(),
      });
      expect(res.statusCode).toBe(403);
    });
  });

  describe("with JavaScript (ajax)", () => {
    it("answers bad input with 422 and only the form fragment", async () => {
      const res = await submit({ ...good, name: "" }, { ajax: true });
      expect(res.statusCode).toBe(422);
      expect(res.body).not.toContain("<html");
      expect(res.body.trim()).toMatch(/^<form class="form"/);
      expect(res.body).toContain('<a href="#example-name">Dit is een verplicht veld.</a>');
      expect(res.headers.vary).toMatch(/X-Requested-With/i);
    });

    it("answers a good post with the thank-you fragment", async () => {
      const res = await submit(good, { ajax: true });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain("<html");
      expect(res.body).toContain("Bedankt, Anna de Vries.");
    });
  });
});

describe("the postcode remote check", () => {
  const check = (url: string) => shop.app.inject({ url });

  it("answers true for a valid postcode in the chosen country", async () => {
    expect((await check("/api/postcode-controle?postcode=1234ab&country=NL")).json()).toBe(true);
    expect((await check("/api/postleitzahl-pruefung?postcode=10115&country=DE")).json()).toBe(true);
  });

  it("answers the message to show, in the page's language", async () => {
    expect((await check("/api/postcode-controle?postcode=10115&country=NL")).json()).toBe(
      "Vul een Nederlandse postcode in, zoals 1234 AB.",
    );
    expect((await check("/api/postleitzahl-pruefung?postcode=1234AB&country=DE")).json()).toBe(
      "Geben Sie eine fünfstellige deutsche Postleitzahl ein, zum Beispiel 10115.",
    );
  });

  it("copes with missing or odd parameters", async () => {
    for (const url of [
      "/api/postcode-controle",
      "/api/postcode-controle?postcode[]=1&country=NL",
      `/api/postcode-controle?postcode=${"9".repeat(5000)}&country=NL`,
    ]) {
      const res = await check(url);
      expect(res.statusCode, url).toBe(200);
    }
  });
});

describe("ajax links and the method override", () => {
  it("answer an ajax request with the fragment and a normal one with the page, varying on the header", async () => {
    const page = await shop.app.inject({ url: "/patroonbibliotheek/tip?n=2" });
    expect(page.body).toMatch(/<html lang="nl"/);
    expect(page.body).toContain("vakantiefoto");
    const fragment = await shop.app.inject({
      url: "/patroonbibliotheek/tip?n=2",
      headers: { "x-requested-with": "XMLHttpRequest" },
    });
    expect(fragment.body.trim()).toMatch(/^<p class="pattern-tip">Tip: vakantiefoto/);
    expect(fragment.headers.vary).toMatch(/X-Requested-With/i);
  });

  it("runs the DELETE route for a POST with X-HTTP-Method-Override, and redirects a plain POST", async () => {
    const { cookie, token } = await session();
    const headers = { cookie, "content-type": "application/x-www-form-urlencoded" };
    const payload = `_csrf=${encodeURIComponent(token)}`;
    const viaOverride = await shop.app.inject({
      method: "POST",
      url: "/patroonbibliotheek/tip",
      headers: { ...headers, "x-http-method-override": "DELETE", "x-requested-with": "XMLHttpRequest" },
      payload,
    });
    expect(viaOverride.statusCode).toBe(200);
    expect(viaOverride.body).toContain("De tip is verwijderd");
    const plain = await shop.app.inject({ method: "POST", url: "/patroonbibliotheek/tip", headers, payload });
    expect(plain.statusCode).toBe(303);
    expect(plain.headers.location).toBe("/patroonbibliotheek?deleted=1#method-override");
  });
});
