import { afterEach, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

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
    expect(nl.body).toContain('<script type="application/json" data-texts-for="relative-time">');
  });

  it("shows issue 8's widgets live: tabs, modals, tooltip, transform panel and photo uploader", async () => {
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
      'data-island="photo-upload" data-upload-url="/fotoboek-maken/fotos"',
      'action="/fotoboek-maken" enctype="multipart/form-data"',
    ]) {
      expect(nl.body, hook).toContain(hook);
    }
    const de = await shop.app.inject({ url: "/musterbibliothek" });
    expect(de.body).toContain('data-upload-url="/fotobuch-gestalten/fotos"');
    expect(de.body).toContain("Registerkarten");
  });

  it("is on by default in development", async () => {
    shop = await testShop({ env: { NODE_ENV: "development" } });
    expect((await shop.app.inject({ url: "/musterbibliothek" })).statusCode).toBe(200);
  });
});
