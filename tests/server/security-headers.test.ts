import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

/**
 * Every protective header, written out by value. Nothing here is computed from the
 * shop's own policy code: a change to our policy or to Helmet's defaults must show up
 * as a failing test, to be looked at and agreed to.
 */
const csp =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self';" +
  "connect-src 'self';form-action 'self';frame-ancestors 'none';base-uri 'self';object-src 'none'";

const expected = {
  "content-security-policy": csp,
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "SAMEORIGIN",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
  "permissions-policy":
    "accelerometer=(), bluetooth=(), camera=(), display-capture=(), fullscreen=(self), geolocation=(), " +
    "gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), payment=(), " +
    "publickey-credentials-get=(), screen-wake-lock=(), serial=(), usb=(), web-share=(self), " +
    "xr-spatial-tracking=()",
};

/** Headers that must not be there: HSTS without an https PUBLIC_URL, and nothing says what runs the shop. */
const absent = [
  "strict-transport-security",
  "x-powered-by",
  "server",
  "cross-origin-embedder-policy",
  "content-security-policy-report-only",
];

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop({
    beforeReady(app) {
      app.get("/kapot", async () => {
        throw new Error("a bug in a page");
      });
    },
  });
});
afterAll(() => shop.close());

const securityHeadersOf = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(expected).map((name) => [name, headers[name]]));

describe("the security headers", () => {
  it.each([
    ["a page", "/", 200],
    ["a page in German", "/de", 200],
    ["a page that does not exist", "/bestaat-niet", 404],
    ["a page that fails", "/kapot", 500],
  ])("a visitor of %s gets every one of them, with exactly these values", async (_what, url, status) => {
    const res = await shop.app.inject({ url });
    expect(res.statusCode).toBe(status);
    expect(securityHeadersOf(res.headers)).toEqual(expected);
    for (const name of absent) expect(res.headers[name], name).toBeUndefined();
  });

  it("a shop with an image host allows images from there, and only that changes", async () => {
    const withHost = await testShop({ env: { IMAGE_HOST: "https://img.fotohoek.nl" } });
    try {
      const res = await withHost.app.inject({ url: "/" });
      expect(securityHeadersOf(res.headers)).toEqual({
        ...expected,
        "content-security-policy":
          "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data: https://img.fotohoek.nl;" +
          "font-src 'self';connect-src 'self';form-action 'self';frame-ancestors 'none';base-uri 'self';" +
          "object-src 'none'",
      });
    } finally {
      await withHost.close();
    }
  });

  it("a shop whose PUBLIC_URL is https sends HSTS for a year, subdomains included; an http one sends none", async () => {
    const https = await testShop({
      env: { PUBLIC_URL: "https://www.fotohoek.nl", PAYMENT_PROVIDER: "test" },
    });
    const http = await testShop({ env: { PUBLIC_URL: "http://127.0.0.1:3000" } });
    try {
      for (const url of ["/", "/bestaat-niet"]) {
        const res = await https.app.inject({ url });
        expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
        expect(securityHeadersOf(res.headers)).toEqual(expected);
        expect((await http.app.inject({ url })).headers["strict-transport-security"]).toBeUndefined();
      }
    } finally {
      await https.close();
      await http.close();
    }
  });
});
