import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "../../server/config.ts";

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
});
