import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "../support/accounts.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";

/** Pages of every kind: shop, customer service, account, checkout, an error, in both languages. */
const pages = [
  "/",
  "/assortiment/fotoboeken",
  "/assortiment/fotoboeken/exclusief-fotoboek",
  "/winkelwagen/inhoud",
  "/inloggen",
  "/account/aanmaken",
  "/wachtwoord-vergeten",
  "/abonnement",
  "/klantenservice",
  "/klantenservice/contact",
  "/bestaat-niet",
  "/de",
  "/anmelden",
  "/einkaufswagen/inhalt",
  "/gibt-es-nicht",
];

const banner = /<aside class="test-shop-banner" aria-label="(Testwinkel|Testshop)">/;

describe("the test-shop banner", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop();
  });
  afterAll(() => shop.close());

  it("the default start says on every page, in its language, that payments are not real", async () => {
    for (const url of pages) {
      const res = await shop.app.inject({ url });
      expect(res.body, url).toMatch(banner);
      const lang = /<html lang="(nl|de)"/.exec(res.body)?.[1];
      expect(res.body, url).toContain(
        lang === "de" ? "Testshop: Zahlungen sind nicht echt." : "Testwinkel: betalingen zijn niet echt.",
      );
    }
  });

  it("shows on the test provider's payment page too", async () => {
    const browser = new BrowserSession(shop.app);
    const placed = await placeOrder(browser);
    expect(placed.statusCode).toBe(303);
    const page = await browser.follow(placed);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(banner);
  });
});

describe("a shop paid through Mollie", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop({
      env: { PAYMENT_PROVIDER: "mollie", MOLLIE_API_KEY: `test_${"a1B2".repeat(8)}` },
    });
  });
  afterAll(() => shop.close());

  it("shows no banner on any page", async () => {
    for (const url of pages) {
      const res = await shop.app.inject({ url });
      expect(res.body, url).not.toContain("test-shop-banner");
      expect(res.body, url).not.toContain("Testwinkel");
    }
  });
});
