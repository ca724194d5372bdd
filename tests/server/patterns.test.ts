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
    expect(nl.body).toContain('<button type="button" class="button" data-analytics="pattern-example"');
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
