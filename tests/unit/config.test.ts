import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig, testPaymentsWarning } from "../../server/config.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "shop-config-"));

describe("readConfig", () => {
  it("starts on the embedded default with no environment at all", () => {
    const dir = tmp();
    const config = readConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe(`sqlite:${dir}/shop.db`);
    expect(config.imageHost).toBe("");
    expect(config.development).toBe(false);
  });

  it("when no cookie secret is given, makes one and keeps it for the next start", () => {
    const dir = tmp();
    const first = readConfig({ DATA_DIR: dir }).cookieSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readConfig({ DATA_DIR: dir }).cookieSecret).toBe(first);
    expect(statSync(join(dir, "cookie-secret")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, "cookie-secret"), "utf8")).toBe(first);
  });

  it("uses the given secret and writes nothing", () => {
    const dir = tmp();
    expect(readConfig({ DATA_DIR: dir, COOKIE_SECRET: "s".repeat(40) }).cookieSecret).toBe("s".repeat(40));
    expect(existsSync(join(dir, "cookie-secret"))).toBe(false);
  });

  it("keeps a sent mail's content 30 days unless MAIL_BODY_DAYS says otherwise, and refuses a window of none", () => {
    const dir = tmp();
    expect(readConfig({ DATA_DIR: dir }).retention.mailBodyDays).toBe(30);
    expect(readConfig({ DATA_DIR: dir, MAIL_BODY_DAYS: "7" }).retention.mailBodyDays).toBe(7);
    expect(() => readConfig({ DATA_DIR: dir, MAIL_BODY_DAYS: "0" })).toThrow(/MAIL_BODY_DAYS/);
  });

  it("names the variable that is wrong", () => {
    expect(() => readConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => readConfig({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => readConfig({ COOKIE_SECRET: "short" })).toThrow(/COOKIE_SECRET: must be at least 32/);
    expect(() => readConfig({ IMAGE_HOST: "images/" })).toThrow(/IMAGE_HOST/);
  });

  it("reads PostgreSQL and the other settings from the environment", () => {
    const config = readConfig({
      DATA_DIR: tmp(),
      PORT: "8080",
      DATABASE_URL: "postgres://shop@db/shop",
      IMAGE_HOST: "https://images.example.nl",
      PUBLIC_URL: "https://www.example.nl/",
      PAYMENT_PROVIDER: "test",
      NODE_ENV: "development",
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: "postgres://shop@db/shop",
      imageHost: "https://images.example.nl",
      publicUrl: "https://www.example.nl",
      development: true,
    });
  });

  it("reads the upload byte limits in MB and GB, as bytes, with defaults of 2 GB an hour and 100 GB in all", () => {
    const defaults = readConfig({ DATA_DIR: tmp() });
    expect(defaults.limits.uploadBytesPerClient).toBe(2048 * 1024 * 1024);
    expect(defaults.uploadStorageMaxBytes).toBe(100 * 1024 ** 3);
    const set = readConfig({ DATA_DIR: tmp(), UPLOAD_BYTES_PER_CLIENT_MB: "5", UPLOAD_STORAGE_MAX_GB: "2" });
    expect(set.limits.uploadBytesPerClient).toBe(5 * 1024 * 1024);
    expect(set.uploadStorageMaxBytes).toBe(2 * 1024 ** 3);
    expect(() => readConfig({ UPLOAD_STORAGE_MAX_GB: "0" })).toThrow(/UPLOAD_STORAGE_MAX_GB/);
  });
});

describe("what counts as a production start", () => {
  const secret = { COOKIE_SECRET: "s".repeat(40) };

  it.each([
    ["NODE_ENV=prod", { NODE_ENV: "prod" }],
    ["NODE_ENV=Production", { NODE_ENV: "Production" }],
    ["NODE_ENV=production", { NODE_ENV: "production" }],
  ])("%s without PUBLIC_URL and PAYMENT_PROVIDER is refused with one line naming both", (_, env) => {
    const attempt = () => readConfig({ ...secret, DATA_DIR: tmp(), ...env });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      new RegExp(
        `^environment variable PAYMENT_PROVIDER: must be set when NODE_ENV=${env.NODE_ENV} .*; environment variable PUBLIC_URL: must be set when NODE_ENV=${env.NODE_ENV}`,
      ),
    );
    expect(attempt).not.toThrow(/\n/);
  });

  it("an https PUBLIC_URL without PAYMENT_PROVIDER is refused, naming PAYMENT_PROVIDER", () => {
    const attempt = () => readConfig({ ...secret, DATA_DIR: tmp(), PUBLIC_URL: "https://www.fotohoek.nl" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/^environment variable PAYMENT_PROVIDER: must be set when PUBLIC_URL is https/);
  });

  it("NODE_ENV=prod with a provider but no PUBLIC_URL is refused, naming PUBLIC_URL only", () => {
    const attempt = () =>
      readConfig({ ...secret, DATA_DIR: tmp(), NODE_ENV: "prod", PAYMENT_PROVIDER: "test" });
    expect(attempt).toThrow(/^environment variable PUBLIC_URL: must be set when NODE_ENV=prod/);
    expect(attempt).not.toThrow(/PAYMENT_PROVIDER/);
  });

  it("nothing set: the test provider, no production start, and a warning to log", () => {
    const config = readConfig({ DATA_DIR: tmp() });
    expect(config.production).toBe(false);
    expect(config.payments).toEqual({ provider: "test" });
    expect(testPaymentsWarning(config)).toMatch(/test provider/);
  });

  it("an http PUBLIC_URL on this machine is no production start", () => {
    for (const url of ["http://127.0.0.1:4123", "http://localhost:3000", "http://[::1]:3000"]) {
      const config = readConfig({ ...secret, DATA_DIR: tmp(), PUBLIC_URL: url });
      expect(config.production).toBe(false);
      expect(config.payments.provider).toBe("test");
    }
  });

  it("an http PUBLIC_URL naming another machine is a production start", () => {
    expect(() => readConfig({ ...secret, DATA_DIR: tmp(), PUBLIC_URL: "http://shop.example" })).toThrow(
      /^environment variable PAYMENT_PROVIDER: must be set when PUBLIC_URL names shop\.example/,
    );
  });

  it("NODE_ENV=development and NODE_ENV=test start as before, on the test provider", () => {
    expect(readConfig({ ...secret, DATA_DIR: tmp(), NODE_ENV: "development" })).toMatchObject({
      production: false,
      development: true,
      patternLibrary: true,
      payments: { provider: "test" },
    });
    expect(readConfig({ ...secret, DATA_DIR: tmp(), NODE_ENV: "test" })).toMatchObject({
      production: false,
      development: false,
      patternLibrary: false,
    });
  });

  it("PAYMENT_PROVIDER=test in production starts, with its own warning", () => {
    const config = readConfig({
      ...secret,
      DATA_DIR: tmp(),
      PUBLIC_URL: "https://www.fotohoek.nl",
      PAYMENT_PROVIDER: "test",
    });
    expect(config.production).toBe(true);
    expect(testPaymentsWarning(config)).toMatch(/PAYMENT_PROVIDER=test in a production start/);
  });

  it("Mollie in production warns about nothing", () => {
    const config = readConfig({
      ...secret,
      DATA_DIR: tmp(),
      NODE_ENV: "production",
      PUBLIC_URL: "https://www.fotohoek.nl",
      PAYMENT_PROVIDER: "mollie",
      MOLLIE_API_KEY: `live_${"a".repeat(30)}`,
    });
    expect(testPaymentsWarning(config)).toBeUndefined();
  });
});
