import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, parseTrustProxy } from "../../server/config.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { freePort, lines, startShopProcess } from "../support/shop-process.ts";

describe("TRUST_PROXY as an operator writes it", () => {
  it.each([
    ["1", 1],
    ["2", 2],
    [" 1 ", 1],
  ])("takes %j as a hop count", (text, hops) => {
    expect(parseTrustProxy(text)).toBe(hops);
  });

  it("takes a list of IPv4 and IPv6 addresses and CIDR ranges", () => {
    expect(parseTrustProxy("10.0.0.0/8, 192.168.1.10,::1,fd00::/8, 2001:db8::1/128")).toEqual([
      "10.0.0.0/8",
      "192.168.1.10",
      "::1",
      "fd00::/8",
      "2001:db8::1/128",
    ]);
  });

  it.each([undefined, "", "  ", "false", "0"])("trusts no proxy for %j", (text) => {
    expect(parseTrustProxy(text)).toBe(false);
  });

  it('refuses "true", which would believe whatever a client writes, and says what to set instead', () => {
    expect(() => parseTrustProxy("true")).toThrow(ConfigError);
    expect(() => parseTrustProxy("true")).toThrow(/TRUST_PROXY.*number of proxies.*such as 1.*addresses/);
  });

  it.each(["yes", "proxy.example.nl", "10.0.0.0/8,nonsense", "1.5", "-1", "10.0.0.1 10.0.0.2"])(
    "refuses %j, naming the setting and the entry",
    (text) => {
      expect(() => parseTrustProxy(text)).toThrow(ConfigError);
      expect(() => parseTrustProxy(text)).toThrow(/TRUST_PROXY/);
    },
  );

  it.each(["999.0.0.1", "10.0.0.0/33", "10.0.0.0/0", "fd00::/129", "a:b", "1:2:3"])(
    "refuses %j, which looks like an address but is none, before Fastify would stop on it",
    (text) => {
      expect(() => parseTrustProxy(text)).toThrow(ConfigError);
      expect(() => parseTrustProxy(text)).toThrow(`TRUST_PROXY: "${text}"`);
    },
  );

  it("passes proxy-addr's named ranges in the case it knows them", () => {
    expect(parseTrustProxy("Loopback,uniquelocal")).toEqual(["loopback", "uniquelocal"]);
  });
});

const shops: TestShop[] = [];
afterEach(async () => {
  await Promise.all(shops.splice(0).map((shop) => shop.close()));
});

/** A shop with one extra route that says which client and protocol it believes. */
async function shopWith(env: Record<string, string>): Promise<TestShop> {
  const shop = await testShop({
    env,
    beforeReady(app) {
      app.get("/wie-ben-ik", async (request) => ({ ip: request.ip, protocol: request.protocol }));
    },
  });
  shops.push(shop);
  return shop;
}

async function seenAs(
  shop: TestShop,
  remoteAddress: string,
  headers: Record<string, string> = {},
): Promise<{ ip: string; protocol: string }> {
  return (await shop.app.inject({ url: "/wie-ben-ik", remoteAddress, headers })).json();
}

/** The postcode check allows 120 requests a minute per client. */
const postcodeCheck = "/api/postcode-controle?country=NL&postcode=1234AB";

async function postcodeChecks(shop: TestShop, count: number, from: (i: number) => [string, string]) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const [remoteAddress, forwardedFor] = from(i);
    const res = await shop.app.inject({
      url: postcodeCheck,
      remoteAddress,
      headers: { "x-forwarded-for": forwardedFor },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe("an attacker behind the shop's one proxy (TRUST_PROXY=1) who forges X-Forwarded-For", () => {
  it("is seen as the address the proxy appended, the right-most, whatever is written to its left", async () => {
    const shop = await shopWith({ TRUST_PROXY: "1" });
    expect(await seenAs(shop, "127.0.0.1", { "x-forwarded-for": "1.2.3.4, 203.0.113.7" })).toMatchObject({
      ip: "203.0.113.7",
    });
    expect(
      await seenAs(shop, "127.0.0.1", { "x-forwarded-for": "198.51.100.1, 1.2.3.4, 203.0.113.7" }),
    ).toMatchObject({ ip: "203.0.113.7" });
    // A visitor the proxy forwarded without anything written in front.
    expect(await seenAs(shop, "127.0.0.1", { "x-forwarded-for": "203.0.113.9" })).toMatchObject({
      ip: "203.0.113.9",
    });
  });

  it("does not get past the postcode check's limit by changing the forged part", async () => {
    const shop = await shopWith({ TRUST_PROXY: "1" });
    const statuses = await postcodeChecks(shop, 121, (i) => ["127.0.0.1", `10.${i}.0.1, 203.0.113.7`]);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    // Someone else behind the same proxy is not held up.
    const other = await shop.app.inject({
      url: postcodeCheck,
      remoteAddress: "127.0.0.1",
      headers: { "x-forwarded-for": "203.0.113.7, 203.0.113.8" },
    });
    expect(other.statusCode).toBe(200);
  });
});

describe("an attacker behind proxies named by address (TRUST_PROXY=10.0.0.0/8,127.0.0.1)", () => {
  const env = { TRUST_PROXY: "10.0.0.0/8,127.0.0.1" };

  it("is seen as the first address outside the named proxies, counted from the connection", async () => {
    const shop = await shopWith(env);
    expect(await seenAs(shop, "10.1.2.3", { "x-forwarded-for": "1.2.3.4, 203.0.113.7" })).toMatchObject({
      ip: "203.0.113.7",
    });
    // Through two of the shop's proxies: the inner one is named too, so it is passed over.
    expect(
      await seenAs(shop, "127.0.0.1", { "x-forwarded-for": "1.2.3.4, 203.0.113.7, 10.0.0.5" }),
    ).toMatchObject({ ip: "203.0.113.7" });
  });

  it("does not get past the postcode check's limit by changing the forged part", async () => {
    const shop = await shopWith(env);
    const statuses = await postcodeChecks(shop, 121, (i) => ["10.0.0.2", `192.0.2.${i % 250}, 203.0.113.7`]);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
  });

  it("who reaches the shop directly is seen as their own address: their header is not read", async () => {
    const shop = await shopWith(env);
    expect(await seenAs(shop, "198.51.100.9", { "x-forwarded-for": "10.0.0.1, 203.0.113.7" })).toMatchObject({
      ip: "198.51.100.9",
    });
    const statuses = await postcodeChecks(shop, 121, (i) => ["198.51.100.9", `203.0.113.${i % 250}`]);
    expect(statuses[120]).toBe(429);
  });
});

describe("a shop that trusts no proxy (TRUST_PROXY unset)", () => {
  it("counts every client by the address it connects from, whatever X-Forwarded-For says", async () => {
    const shop = await shopWith({});
    expect(await seenAs(shop, "127.0.0.1", { "x-forwarded-for": "203.0.113.7" })).toMatchObject({
      ip: "127.0.0.1",
    });
  });
});

/** The contact form sent as a browser without JavaScript, through a proxy saying https or not. */
async function contactCookie(shop: TestShop, remoteAddress: string, proto: string) {
  const headers = { "x-forwarded-for": "203.0.113.7", "x-forwarded-proto": proto };
  const form = await shop.app.inject({ url: "/klantenservice/contact", remoteAddress, headers });
  const token = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? "";
  const res = await shop.app.inject({
    method: "POST",
    url: "/klantenservice/contact",
    remoteAddress,
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({
      _csrf: token,
      name: "Anna",
      email: "anna@example.nl",
      subject: "order",
      question: "Waar blijft mijn bestelling?",
      website: "",
    }).toString(),
  });
  expect(res.statusCode).toBe(303);
  const cookie = res.cookies.find((c) => c.name === "contact_sent");
  expect(cookie).toBeDefined();
  return cookie;
}

describe("a shopper on https, behind a proxy that ends TLS", () => {
  it("gets Secure cookies when the shop trusts the proxy that says so (X-Forwarded-Proto)", async () => {
    const shop = await shopWith({ TRUST_PROXY: "1" });
    expect(await seenAs(shop, "127.0.0.1", { "x-forwarded-proto": "https" })).toMatchObject({
      protocol: "https",
    });
    expect((await contactCookie(shop, "127.0.0.1", "https"))?.secure).toBe(true);
    expect((await contactCookie(shop, "127.0.0.1", "http"))?.secure).toBeUndefined();
  });

  it("is not taken for https on a client's own word: the header counts only from a trusted proxy", async () => {
    const listed = await shopWith({ TRUST_PROXY: "10.0.0.0/8" });
    expect(await seenAs(listed, "10.0.0.2", { "x-forwarded-proto": "https" })).toMatchObject({
      protocol: "https",
    });
    expect(await seenAs(listed, "198.51.100.9", { "x-forwarded-proto": "https" })).toMatchObject({
      protocol: "http",
    });
    expect((await contactCookie(listed, "198.51.100.9", "https"))?.secure).toBeUndefined();

    const none = await shopWith({});
    expect(await seenAs(none, "127.0.0.1", { "x-forwarded-proto": "https" })).toMatchObject({
      protocol: "http",
    });
    expect((await contactCookie(none, "127.0.0.1", "https"))?.secure).toBeUndefined();
  });
});

describe("starting the shop with TRUST_PROXY", () => {
  it.each([
    ["true", /cannot start: environment variable TRUST_PROXY: "true" trusts addresses any client can forge/],
    [
      "10.0.0.0/99",
      /cannot start: environment variable TRUST_PROXY: "10.0.0.0\/99" is neither a hop count nor an IP address/,
    ],
  ])(
    "set to %j exits non-zero with one line saying what to set",
    async (value, message) => {
      const shop = startShopProcess({
        TRUST_PROXY: value,
        PORT: String(await freePort()),
        COOKIE_SECRET: "s".repeat(40),
        DATABASE_URL: "sqlite::memory:",
      });
      expect(await shop.exit).toBe(1);
      const out = lines(shop.output());
      expect(out).toHaveLength(1);
      expect(JSON.parse(out[0] ?? "{}").msg).toMatch(message);
    },
    60_000,
  );
});
