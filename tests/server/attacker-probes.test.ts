import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "../../server/config.ts";
import { hashPassword } from "../../server/domain/password-hash.ts";
import { securityHeaders } from "../../server/http/security/headers.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { multipart, photos } from "../support/photos.ts";

/**
 * The probes an attacker ran against a running shop, each replayed once against what it
 * found, to prove it holds now. Each finding has its own, fuller tests beside this file
 * (trusted-proxies, image-bombs, store-limits, retention, private-caching, password-hash,
 * subscription-signup-privacy, framework-errors, file-modes); this file is the checklist.
 */

const shops: TestShop[] = [];
afterEach(async () => {
  await Promise.all(shops.splice(0).map((shop) => shop.close()));
});
async function shopWith(options: Parameters<typeof testShop>[0] = {}): Promise<TestShop> {
  const shop = await testShop(options);
  shops.push(shop);
  return shop;
}

const product = "/assortiment/fotoboeken/exclusief-fotoboek";
const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30", quantity: "1" };
const rows = async (shop: TestShop, table: "carts" | "uploads" | "analytics_events") =>
  Number(
    (
      await shop.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("an attacker who forges X-Forwarded-For", () => {
  it("cannot start the shop trusting every hop: TRUST_PROXY=true is refused with what to set instead", () => {
    expect(() => readConfig({ TRUST_PROXY: "true", COOKIE_SECRET: "x".repeat(32) })).toThrow(ConfigError);
    expect(() => readConfig({ TRUST_PROXY: "true", COOKIE_SECRET: "x".repeat(32) })).toThrow(
      /number of proxies/,
    );
  });

  it("behind one trusted proxy, gains nothing by writing a new address in front of the real one", async () => {
    const shop = await shopWith({ env: { TRUST_PROXY: "1" } });
    const check = (i: number) =>
      shop.app.inject({
        url: "/api/postcode-controle?postcode=1234AB&country=NL",
        remoteAddress: "10.0.0.2",
        headers: { "x-forwarded-for": `198.51.100.${i % 250}, 203.0.113.7` },
      });
    for (let i = 0; i < 120; i++) expect((await check(i)).statusCode).toBe(200);
    expect((await check(120)).statusCode).toBe(429);
  });
});

describe("an attacker who uploads a 31 KB PNG declaring 16000 × 16000 pixels", () => {
  it("is refused from its header, and nothing is stored", async () => {
    const shop = await shopWith();
    const browser = new BrowserSession(shop.app);
    await browser.get("/fotoboek-maken?fotoboek=exclusief-fotoboek");
    const res = await browser.post(
      "/fotoboek-maken/fotos",
      multipart([
        { name: "photo", file: { filename: "bom.png", data: photos.pngBomb(16000), type: "image/png" } },
      ]),
      { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("hoogstens 50 megapixel");
    expect(await rows(shop, "uploads")).toBe(0);
  });
});

describe("an attacker who sends every request without cookies", () => {
  it("gets a new cart only up to the limit per client, then a 429", async () => {
    const shop = await shopWith({ env: { CART_RATE_LIMIT: "3" } });
    const add = async () => {
      const browser = new BrowserSession(shop.app);
      await browser.get(product);
      return browser.form("/winkelwagen/inhoud", book);
    };
    for (let i = 0; i < 3; i++) expect((await add()).statusCode).toBe(303);
    expect((await add()).statusCode).toBe(429);
    expect(await rows(shop, "carts")).toBe(3);
  });

  it("stores no more analytics events a minute than the limit, however many beacons", async () => {
    const shop = await shopWith({ env: { ANALYTICS_RATE_LIMIT: "20" } });
    const beacon = () =>
      shop.app.inject({
        method: "POST",
        url: "/analytics/events",
        headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
        payload: JSON.stringify({
          route: "home",
          locale: "nl",
          events: Array.from({ length: 10 }, () => ({ event: "share", properties: { network: "whatsapp" } })),
        }),
      });
    expect((await beacon()).statusCode).toBe(204);
    for (let i = 0; i < 9; i++) await beacon();
    expect(await rows(shop, "analytics_events")).toBe(20);
  });
});

describe("a cache between the shop and its shoppers", () => {
  it("is told a shopper's page is private and differs per cookie", async () => {
    const shop = await shopWith();
    const browser = new BrowserSession(shop.app);
    await browser.get(product);
    await browser.form("/winkelwagen/inhoud", book);
    const page = await browser.get(product);
    expect(page.headers["cache-control"]).toMatch(/^private\b/);
    expect(String(page.headers.vary)).toMatch(/\bCookie\b/);
  });
});

describe("an attacker who steals the password hashes", () => {
  it("finds them at or above OWASP's scrypt parameters", async () => {
    const [scheme, log2N, r, p] = (await hashPassword("Zomer aan zee 2026!")).split("$").map(String);
    expect(scheme).toBe("scrypt");
    expect(Number(r)).toBeGreaterThanOrEqual(8);
    // OWASP: N = 2^17 with p = 1, or N = 2^15 with p = 3.
    expect(Number(log2N) >= 17 || (Number(log2N) >= 15 && Number(p) >= 3)).toBe(true);
  });
});

describe("an attacker who asks the sign-up's e-mail check about an address", () => {
  it("learns nothing about whether it has a subscription", async () => {
    const shop = await shopWith({ env: { SIGNUP_RATE_LIMIT: "100" } });
    const owner = new BrowserSession(shop.app);
    await owner.get("/abonnement");
    const password = "Zomer aan zee 2026!";
    const signUp = await owner.form("/abonnement/aanmelden", {
      plan: "plus",
      country: "NL",
      name: "Carla Jansen",
      email: "carla@example.nl",
      password,
      passwordConfirm: password,
    });
    expect(signUp.statusCode).toBe(303);
    const ask = (email: string) =>
      shop.app.inject({ url: `/api/abonnement-email-controle?email=${encodeURIComponent(email)}` });
    const subscribed = await ask("carla@example.nl");
    const unknown = await ask("iemand@example.nl");
    expect(subscribed.statusCode).toBe(unknown.statusCode);
    expect(subscribed.body).toBe(unknown.body);
  });
});

describe("an attacker who sends a URL that cannot be decoded", () => {
  it("gets the shop's own error page with every security header, not JSON repeating the URL", async () => {
    const shop = await shopWith();
    const res = await shop.app.inject({ url: "/%E0%A4%A<script>", headers: { accept: "text/html" } });
    expect(res.statusCode).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    for (const [name, value] of Object.entries(securityHeaders(shop.config))) {
      expect(res.headers[name], name).toBe(value);
    }
    expect(res.body).not.toContain("%E0%A4%A");
    expect(res.body).not.toContain("<script>");
  });
});

describe("another user on the shop's machine", () => {
  it("can read none of the shop's data: the database and the photos are 0600, their folders 0700", async () => {
    const shop = await shopWith({ sqliteFile: true });
    const browser = new BrowserSession(shop.app);
    await browser.get("/fotoboek-maken?fotoboek=exclusief-fotoboek");
    const upload = await browser.post(
      "/fotoboek-maken/fotos",
      multipart([
        { name: "photo", file: { filename: "strand.jpg", data: await photos.jpeg(), type: "image/jpeg" } },
      ]),
      { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
    );
    expect(upload.statusCode).toBe(200);
    const mode = (path: string) => statSync(path).mode & 0o777;
    const data = shop.config.dataDir;
    expect(mode(join(data, "shop.db"))).toBe(0o600);
    expect(mode(join(data, "uploads"))).toBe(0o700);
    const [original] = await shop.database.db.selectFrom("uploads").select("id").execute();
    expect(original).toBeDefined();
    expect(mode(join(data, "uploads", "originals"))).toBe(0o700);
  });
});
