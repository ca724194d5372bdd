import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testSecret } from "../../support/app.ts";
import {
  freePort,
  lines,
  startShopProcess,
  stopAllShopProcesses,
  until,
} from "../../support/shop-process.ts";

afterEach(stopAllShopProcesses);

async function start(env: Record<string, string>) {
  const port = await freePort();
  const shop = startShopProcess({
    COOKIE_SECRET: testSecret,
    DATA_DIR: mkdtempSync(join(tmpdir(), "shop-payments-start-")),
    PORT: String(port),
    ...env,
  });
  return { shop, port };
}

describe("starting the shop with its payment settings", () => {
  it("NODE_ENV=production without PAYMENT_PROVIDER exits non-zero with one line naming the setting", async () => {
    const { shop } = await start({ NODE_ENV: "production" });

    expect(await shop.exit).toBe(1);
    const out = lines(shop.output());
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0] ?? "").msg).toMatch(
      /^cannot start: environment variable PAYMENT_PROVIDER: must be set when NODE_ENV=production/,
    );
  });

  it("PAYMENT_PROVIDER=mollie without a key exits non-zero with one line naming MOLLIE_API_KEY", async () => {
    const { shop } = await start({ PAYMENT_PROVIDER: "mollie" });

    expect(await shop.exit).toBe(1);
    const out = lines(shop.output());
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0] ?? "").msg).toMatch(/^cannot start: environment variable MOLLIE_API_KEY: /);
  });

  it("NODE_ENV=production with PAYMENT_PROVIDER=test starts", async () => {
    const { shop, port } = await start({
      NODE_ENV: "production",
      PAYMENT_PROVIDER: "test",
      PUBLIC_URL: "https://www.fotohoek.nl",
    });

    await until(
      async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok === true,
    );
    shop.child.kill("SIGTERM");
    expect(await shop.exit).toBe(0);
  });
});
