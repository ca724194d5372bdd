import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot, readConfig, securityTxtDefaultDays } from "../../server/config.ts";
import { loadCompany } from "../../server/domain/company.ts";
import { type TestShop, testShop } from "../support/app.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const get = (url: string, target = shop, host = "localhost:3000") =>
  target.app.inject({ method: "GET", url, headers: { host } });

/** Width and height from a PNG's IHDR chunk. */
function pngSize(data: Buffer): { width: number; height: number } {
  expect(data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

describe("the web app manifest", () => {
  it("answers 200 as application/manifest+json, with icons of the sizes it claims", async () => {
    const res = await get("/site.webmanifest");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/manifest\+json/);
    const manifest = res.json();
    expect(manifest).toMatchObject({ name: "Fotohoek", short_name: "Fotohoek", start_url: "/", lang: "nl" });
    const purposes = manifest.icons.map((i: { purpose: string }) => i.purpose);
    expect(purposes).toContain("maskable");
    for (const icon of manifest.icons as Array<{ src: string; sizes: string; type: string }>) {
      const file = await get(icon.src);
      expect(file.statusCode, icon.src).toBe(200);
      expect(file.headers["content-type"]).toBe(icon.type);
      const { width, height } = pngSize(file.rawPayload);
      expect(`${width}x${height}`).toBe(icon.sizes);
    }
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(
      expect.arrayContaining(["192x192", "512x512"]),
    );
  });

  it("is linked from the head of every page, in both languages, with the favicon", async () => {
    for (const url of ["/", "/de", "/inloggen", "/nergens"]) {
      const html = (await get(url)).body;
      expect(html, url).toContain('<link rel="manifest" href="/site.webmanifest">');
      expect(html, url).toContain('<link rel="icon" href="/favicon.ico" sizes="32x32">');
    }
  });
});

describe("/favicon.ico", () => {
  it("is a real ICO file: its directory names 16, 32 and 48 px PNG images that are there", async () => {
    const res = await get("/favicon.ico");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/x-icon");
    expect(res.headers["cache-control"]).toBe("public, max-age=86400");
    const ico = res.rawPayload;
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      const image = ico.subarray(offset, offset + length);
      const { width, height } = pngSize(image);
      expect(width).toBe(ico.readUInt8(entry));
      expect(height).toBe(ico.readUInt8(entry + 1));
      sizes.push(width);
    }
    expect(sizes).toEqual([16, 32, 48]);
    expect(ico).toEqual(readFileSync(resolve(projectRoot, "static/images/icons/favicon.ico")));
  });
});

describe("/.well-known/security.txt", () => {
  const fields = (text: string) =>
    Object.fromEntries(
      text
        .split("\n")
        .filter((line) => /^[A-Za-z-]+: /.test(line))
        .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
    );

  it("answers 200 as text with the RFC 9116 fields: the company's mail by default, expiring within a year", async () => {
    const res = await get("/.well-known/security.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const f = fields(res.body);
    expect(f.Contact).toBe(`mailto:${loadCompany().customerService.nl.email}`);
    expect(f["Preferred-Languages"]).toBe("nl, de");
    expect(f.Canonical).toBe("http://localhost:3000/.well-known/security.txt");
    const expires = Date.parse(f.Expires ?? "");
    expect(f.Expires).toBe(new Date(expires).toISOString());
    // A fixed date, worked out at start-up: the configuration's, just under a year ahead.
    expect(expires).toBe(shop.config.securityTxtExpires.getTime());
    expect(expires).toBeGreaterThan(Date.now());
    expect(expires).toBeLessThanOrEqual(Date.now() + securityTxtDefaultDays * 86_400_000);
  });

  it("takes its contact and expiry from the settings, and its address from PUBLIC_URL", async () => {
    const configured = await testShop({
      env: {
        PUBLIC_URL: "https://www.fotohoek.nl",
        PAYMENT_PROVIDER: "test",
        SECURITY_CONTACT: "https://www.fotohoek.nl/beveiliging",
        SECURITY_TXT_EXPIRES: "2099-06-30",
      },
    });
    try {
      const f = fields((await get("/.well-known/security.txt", configured, "evil.example")).body);
      expect(f.Contact).toBe("https://www.fotohoek.nl/beveiliging");
      expect(f.Expires).toBe("2099-06-30T00:00:00.000Z");
      expect(f.Canonical).toBe("https://www.fotohoek.nl/.well-known/security.txt");
    } finally {
      await configured.close();
    }
  });

  it("refuses an expiry in the past or a contact that is no address, naming the setting", () => {
    const base = { COOKIE_SECRET: "x".repeat(32) };
    expect(() => readConfig({ ...base, SECURITY_TXT_EXPIRES: "2020-01-01" })).toThrow(
      /SECURITY_TXT_EXPIRES: must be a date in the future/,
    );
    expect(() => readConfig({ ...base, SECURITY_TXT_EXPIRES: "next year" })).toThrow(/SECURITY_TXT_EXPIRES/);
    expect(() => readConfig({ ...base, SECURITY_CONTACT: "security@fotohoek.nl" })).toThrow(
      /SECURITY_CONTACT: must be a mailto: or https: address/,
    );
  });
});

describe("the files at fixed addresses", () => {
  it("carry the shop's security headers and may be kept by caches", async () => {
    for (const url of [
      "/site.webmanifest",
      "/favicon.ico",
      "/.well-known/security.txt",
      "/robots.txt",
      "/sitemap.xml",
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-security-policy"], url).toContain("default-src 'self'");
      expect(res.headers["cache-control"], url).toMatch(/^public, max-age=\d+$/);
      expect(res.headers["set-cookie"], url).toBeUndefined();
    }
  });
});
