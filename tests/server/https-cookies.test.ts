import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountPaths, password, signedUp, signIn } from "../support/accounts.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";

/**
 * Under an https PUBLIC_URL every cookie is a `__Host-` cookie (Secure, Path=/, no Domain),
 * so no subdomain or plain-http page can plant one; under http the names stay as they are.
 */
const setCookies = (res: LightMyRequestResponse) => res.cookies;

function expectHostCookies(res: LightMyRequestResponse): void {
  expect(res.cookies.length).toBeGreaterThan(0);
  for (const cookie of res.cookies) {
    expect(cookie.name, cookie.name).toMatch(/^__Host-/);
    expect(cookie.secure, cookie.name).toBe(true);
    expect(cookie.path, cookie.name).toBe("/");
    expect(cookie.domain, cookie.name).toBeUndefined();
  }
}

describe("cookies under an https PUBLIC_URL", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop({
      env: { PUBLIC_URL: "https://www.fotohoek.nl", PAYMENT_PROVIDER: "test", SIGNUP_RATE_LIMIT: "1000" },
      sleep: async () => {},
    });
  });
  afterAll(() => shop.close());

  it("the cart and its form secret are __Host- cookies, and the cart keeps working with them", async () => {
    // A browser that does not say where its requests come from: only its forms carry a secret of its own.
    const browser = new BrowserSession(shop.app, { fetchMetadata: false });
    await browser.get("/assortiment/fotoboeken/exclusief-fotoboek");
    const added = await browser.form("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      quantity: "2",
    });
    expect(added.statusCode).toBe(303);
    expectHostCookies(added);
    expect(setCookies(added).map((c) => c.name)).toContain("__Host-cart");
    const cart = await browser.get("/winkelwagen/inhoud");
    expect(cart.statusCode).toBe(200);
    expect(cart.body).toContain("Exclusief fotoboek");
    expect(browser.cookieHeader()).toContain("__Host-_csrf=");
    // A cookie without its prefix is none of the shop's under https: planted over http, say.
    const planted = await shop.app.inject({
      url: "/winkelwagen/inhoud",
      headers: { cookie: browser.cookieHeader().replaceAll("__Host-", "") },
    });
    expect(planted.body).not.toContain("Exclusief fotoboek");
  });

  it("signing up, out and in again goes through __Host- session and shopper cookies", async () => {
    const browser = await signedUp(shop.app, shop.database.db, { email: "anna@example.nl" });
    expect(browser.cookieHeader()).toContain("__Host-session=");
    expect((await browser.get(accountPaths.nl.account)).statusCode).toBe(200);
    const out = await browser.form(accountPaths.nl.signOut, {});
    expect(out.statusCode).toBe(303);
    for (const cookie of out.cookies) expect(cookie.name).toMatch(/^__Host-/);
    // Signed out, the account page sends to sign-in with a flash that the sign-in page reads once.
    const away = await browser.get(accountPaths.nl.account);
    expect(away.statusCode).toBe(303);
    expectHostCookies(away);
    expect(away.cookies.map((c) => c.name)).toContain("__Host-flash-sign-in");
    const signInPage = await browser.follow(away);
    expect(signInPage.body).toContain("Log in om verder te gaan.");
    const cleared = signInPage.cookies.find((c) => c.name === "__Host-flash-sign-in");
    expect(cleared?.secure).toBe(true);
    expect(browser.cookieHeader()).not.toContain("flash-sign-in");

    const { browser: again, res } = await signIn(shop.app, "anna@example.nl", password);
    expect(res.statusCode).toBe(303);
    expectHostCookies(res);
    expect(res.cookies.map((c) => c.name)).toEqual(
      expect.arrayContaining(["__Host-session", "__Host-shopper"]),
    );
    expect((await again.get(accountPaths.nl.account)).statusCode).toBe(200);
  });
});

describe("cookies under http", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop();
  });
  afterAll(() => shop.close());

  it("keep their plain names", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/assortiment/fotoboeken/exclusief-fotoboek");
    const added = await browser.form("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      quantity: "1",
    });
    expect(added.cookies.map((c) => c.name)).toContain("cart");
    for (const cookie of added.cookies) expect(cookie.name).not.toMatch(/^__Host-/);
  });
});
