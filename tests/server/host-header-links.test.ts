import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountPaths, annasAddress, password, placeOrder, signedUp } from "../support/accounts.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";

/**
 * Without PUBLIC_URL (the default start) every absolute link the shop hands out, in mails
 * and to the payment provider, names this machine: a request with a foreign Host header
 * (password-reset poisoning, a webhook sent to the attacker) gets http://localhost:PORT.
 */
let shop: TestShop;
beforeAll(async () => {
  shop = await testShop({ env: { SIGNUP_RATE_LIMIT: "1000", PORT: "4321" }, sleep: async () => {} });
});
afterAll(() => shop.close());

const own = "http://localhost:4321/";
const foreign = { host: "evil.example" };
const db = () => shop.database.db;

/** The text of the one mail of this kind to this address. */
async function mailText(to: string, kind: string): Promise<string> {
  const rows = await db()
    .selectFrom("outbox")
    .select("text_body")
    .where("to_address", "=", to)
    .where("kind", "=", kind)
    .execute();
  expect(rows).toHaveLength(1);
  return rows[0]?.text_body ?? "";
}

/** Every absolute link in a text. */
const linksIn = (text: string) => text.match(/https?:\/\/[^\s)>"]+/g) ?? [];

function expectOwnLinks(text: string): void {
  expect(text).not.toContain("evil.example");
  const links = linksIn(text).filter((link) => !link.includes("fotohoek.nl"));
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) expect(link.startsWith(own), link).toBe(true);
}

describe("links built while a request names a foreign host", () => {
  it("the mailed password-reset link names this machine, not the Host header", async () => {
    await signedUp(shop.app, db(), { email: "anna@example.nl" });
    const browser = new BrowserSession(shop.app, { headers: foreign });
    await browser.get(accountPaths.nl.forgotten);
    expect((await browser.form(accountPaths.nl.forgotten, { email: "anna@example.nl" })).statusCode).toBe(
      200,
    );
    expectOwnLinks(await mailText("anna@example.nl", "password-reset"));
  });

  it("the account sign-up's confirm link names this machine", async () => {
    const browser = new BrowserSession(shop.app, { headers: foreign });
    await browser.get(accountPaths.nl.create);
    const res = await browser.form(accountPaths.nl.create, {
      name: "Bram Jansen",
      email: "bram@example.nl",
      password,
      passwordConfirm: password,
    });
    expect(res.statusCode).toBe(303);
    expectOwnLinks(await mailText("bram@example.nl", "account-confirm"));
  });

  it("the e-mail change's confirm link names this machine", async () => {
    const signedIn = await signedUp(shop.app, db(), { email: "carla@example.nl" });
    const browser = new BrowserSession(shop.app, { headers: foreign });
    browser.adopt(signedIn);
    await browser.get(accountPaths.nl.settings);
    const res = await browser.form(accountPaths.nl.email, {
      email: "carla.nieuw@example.nl",
      currentPassword: password,
    });
    expect(res.statusCode).toBe(303);
    expectOwnLinks(await mailText("carla.nieuw@example.nl", "email-change"));
  });

  it("the subscription's confirm link names this machine", async () => {
    const browser = new BrowserSession(shop.app, { headers: foreign });
    await browser.get("/abonnement");
    const res = await browser.form("/abonnement/aanmelden", {
      plan: "plus",
      country: "NL",
      name: "Daan de Wit",
      email: "daan@example.nl",
      password,
      passwordConfirm: password,
    });
    expect(res.statusCode).toBe(303);
    expectOwnLinks(await mailText("daan@example.nl", "subscription-confirm"));
  });

  it("the payment's redirect and webhook URLs given to the provider name this machine", async () => {
    const browser = new BrowserSession(shop.app, { headers: foreign });
    const placed = await placeOrder(browser, { ...annasAddress, email: "eva@example.nl" });
    expect(placed.statusCode).toBe(303);
    expect(String(placed.headers.location)).not.toContain("evil.example");
    const payment = await db()
      .selectFrom("test_payments")
      .select(["redirect_url", "webhook_url"])
      .executeTakeFirstOrThrow();
    expect(payment.redirect_url.startsWith(own)).toBe(true);
    expect(payment.webhook_url).toBe(`${own}api/betalingen/webhook`);
  });

  it("a Host naming this machine is kept, with its port", async () => {
    const res = await shop.app.inject({ url: "/de", headers: { host: "127.0.0.1:8123" } });
    expect(res.body).toContain('rel="canonical" href="http://127.0.0.1:8123/de"');
    const ipv6 = await shop.app.inject({ url: "/de", headers: { host: "[::1]:8123" } });
    expect(ipv6.body).toContain('rel="canonical" href="http://[::1]:8123/de"');
    const foreignPage = await shop.app.inject({ url: "/de", headers: foreign });
    expect(foreignPage.body).toContain('rel="canonical" href="http://localhost:4321/de"');
    expect(foreignPage.body).not.toContain("evil.example");
  });
});
