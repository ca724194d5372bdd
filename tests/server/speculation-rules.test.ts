import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";
import { shopper } from "../support/shopper.ts";
import { pageDocument, type Rules, speculationFor } from "../support/speculation-rules.ts";

let shop: TestShop;
let rules: Rules;
beforeAll(async () => {
  shop = await testShop();
  const res = await shop.app.inject({ url: "/speculation-rules.json" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^application\/speculationrules\+json(;|$)/);
  rules = JSON.parse(res.body);
});
afterAll(() => shop.close());

/** A page as the shop renders it, in a document, to ask what the browser does with its links. */
async function page(url: string, headers: Record<string, string> = {}) {
  const res = await shop.app.inject({ url, headers });
  expect(res.statusCode, url).toBe(200);
  return pageDocument(res.body, url);
}

const linkTo = (doc: Document, href: string, attributes: Record<string, string> = {}) => {
  const a = doc.createElement("a");
  a.setAttribute("href", href);
  for (const [name, value] of Object.entries(attributes)) a.setAttribute(name, value);
  doc.querySelector("main")?.append(a);
  return a;
};

describe("the speculation rules", () => {
  it("are named by a Speculation-Rules header on every page, also a kept answer", async () => {
    for (const url of [
      "/",
      "/assortiment/fotoboeken",
      "/assortiment/fotoboeken/exclusief-fotoboek",
      "/winkelwagen/inhoud",
    ]) {
      for (let i = 0; i < 2; i++) {
        const res = await shop.app.inject({ url, headers: { "accept-encoding": "gzip" } });
        expect(res.headers["speculation-rules"], url).toBe('"/speculation-rules.json"');
      }
    }
    // The policy stays strict: the rules are a file, no inline script is allowed for them.
    const res = await shop.app.inject({ url: "/" });
    expect(res.headers["content-security-policy"]).toMatch(/script-src 'self'(;|$)/);
    expect(res.body).not.toContain("speculationrules");
  });

  it("prefetch page links on hover or press (moderate), and prerender a category page's product links", async () => {
    const category = await page("/assortiment/fotoboeken");
    const products = [...category.querySelectorAll<HTMLAnchorElement>("a.product-card__link")];
    expect(products.length).toBeGreaterThan(0);
    for (const link of products) expect(speculationFor(rules, link), link.href).toBe("prerender");
    const nav = [...category.querySelectorAll<HTMLAnchorElement>(".site-nav a")];
    for (const link of nav) expect(speculationFor(rules, link), link.href).toBe("prefetch");
    for (const rule of [...(rules.prefetch ?? []), ...(rules.prerender ?? [])])
      expect(rule.eagerness).toBe("moderate");
  });

  it("prerender product links only from a category page: elsewhere they are prefetched", async () => {
    const home = await page("/");
    const cards = [...home.querySelectorAll<HTMLAnchorElement>("a.product-card__link")];
    expect(cards.length).toBeGreaterThan(0);
    for (const link of cards) expect(speculationFor(rules, link)).toBe("prefetch");
  });

  it("prerender the cart contents' link to the address, the next checkout step, and only prefetch cart pages elsewhere", async () => {
    const s = await shopper(shop.app);
    await s.post("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      quantity: "1",
    });
    const contents = pageDocument((await s.get("/winkelwagen/inhoud")).body, "/winkelwagen/inhoud");
    const next = contents.querySelector<HTMLAnchorElement>('main a[href="/winkelwagen/adres"]');
    expect(next).toBeTruthy();
    expect(speculationFor(rules, next as HTMLAnchorElement)).toBe("prerender");

    const home = await page("/");
    expect(speculationFor(rules, linkTo(home, "/winkelwagen/adres"))).toBe("prefetch");
    expect(speculationFor(rules, linkTo(home, "/winkelwagen/overzicht"))).toBe("prefetch");
    const cart = home.querySelector<HTMLAnchorElement>("a.cart-link") as HTMLAnchorElement;
    expect(speculationFor(rules, cart)).toBe("prefetch");
  });

  it("never fetch ahead the language switch, sign-out, payment pages, token addresses or data-no-prefetch", async () => {
    const doc = await page("/assortiment/fotoboeken");
    const languageSwitch = doc.querySelector<HTMLAnchorElement>(".language-switcher a[hreflang]");
    expect(languageSwitch).toBeTruthy();
    const never: Array<[string, HTMLAnchorElement]> = [
      ["the language switch", languageSwitch as HTMLAnchorElement],
      ["sign-out (nl)", linkTo(doc, "/uitloggen")],
      ["sign-out everywhere", linkTo(doc, "/account/overal-uitloggen")],
      ["the test payment page", linkTo(doc, "/testbetaling/tr_123")],
      ["the payment webhook", linkTo(doc, "/api/betalingen/webhook")],
      ["an account's confirmation link", linkTo(doc, "/account/bevestigen/abc123")],
      ["a password reset link", linkTo(doc, "/wachtwoord-herstellen/abc123")],
      ["a subscription's confirmation link", linkTo(doc, "/abonnement/bevestigen/abc123")],
      ["an e-mail change link", linkTo(doc, "/account/e-mailadres/abc123")],
      ["an order claim link", linkTo(doc, "/account/bestelling-toevoegen/abc123")],
      ["an order page with its secret", linkTo(doc, "/bestelling/FH-100001?code=abcdef")],
      ["any address with a token", linkTo(doc, "/klantenservice?token=abc")],
      ["a link marked data-no-prefetch", linkTo(doc, "/klantenservice", { "data-no-prefetch": "" })],
      [
        "a link inside data-no-prefetch",
        (() => {
          const box = doc.createElement("div");
          box.setAttribute("data-no-prefetch", "");
          doc.querySelector("main")?.append(box);
          const a = doc.createElement("a");
          a.setAttribute("href", "/klantenservice/faq/overzicht");
          box.append(a);
          return a;
        })(),
      ],
      ["the account export", linkTo(doc, "/account/privacy/mijn-gegevens.json")],
      ["another site", linkTo(doc, "https://example.com/")],
    ];
    for (const [what, link] of never) expect(speculationFor(rules, link), what).toBe("none");
  });

  it("exclude the German addresses of the same routes", async () => {
    const doc = await page("/sortiment/fotobuecher");
    for (const id of ["signOut", "testPayment", "passwordReset", "accountConfirm"] as const) {
      const path = shop.app.i18n.routes.pathForUntyped(id, "de", { payment: "tr_1", token: "abc" });
      expect(speculationFor(rules, linkTo(doc, path)), path).toBe("none");
    }
  });
});
