import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "../../../server/config.ts";
import { paymentProvider } from "../../../server/payments/index.ts";
import { type Database, openDatabase } from "../../../server/store/database.ts";
import { migrateToLatest } from "../../../server/store/migrate.ts";

const secret = { COOKIE_SECRET: "x".repeat(32) };
/** A production start names its address as well as its provider. */
const production = { NODE_ENV: "production", PUBLIC_URL: "https://www.fotohoek.nl" };
const mollieKey = `test_${"a1B2".repeat(8)}`;

describe("the payment settings", () => {
  it("without any setting the shop uses the test provider, so npm start works out of the box", () => {
    expect(readConfig(secret).payments).toEqual({ provider: "test" });
  });

  it("NODE_ENV=production set explicitly without PAYMENT_PROVIDER stops start-up, naming the setting", () => {
    expect(() => readConfig({ ...secret, NODE_ENV: "production" })).toThrow(ConfigError);
    expect(() => readConfig({ ...secret, NODE_ENV: "production" })).toThrow(
      /^environment variable PAYMENT_PROVIDER: must be set when NODE_ENV=production/,
    );
  });

  it("in production the test provider runs when asked for by name", () => {
    expect(readConfig({ ...secret, ...production, PAYMENT_PROVIDER: "test" }).payments).toEqual({
      provider: "test",
    });
  });

  it("in development the test provider is the default", () => {
    expect(readConfig({ ...secret, NODE_ENV: "development" }).payments).toEqual({ provider: "test" });
  });

  it("mollie takes a test or live key", () => {
    expect(readConfig({ ...secret, PAYMENT_PROVIDER: "mollie", MOLLIE_API_KEY: mollieKey }).payments).toEqual(
      {
        provider: "mollie",
        mollieApiKey: mollieKey,
      },
    );
    const live = `live_${"Z9y8".repeat(8)}`;
    expect(
      readConfig({ ...secret, ...production, PAYMENT_PROVIDER: "mollie", MOLLIE_API_KEY: live }).payments,
    ).toEqual({ provider: "mollie", mollieApiKey: live });
  });

  it("mollie without a key is refused, naming MOLLIE_API_KEY", () => {
    expect(() => readConfig({ ...secret, PAYMENT_PROVIDER: "mollie" })).toThrow(ConfigError);
    expect(() => readConfig({ ...secret, PAYMENT_PROVIDER: "mollie" })).toThrow(
      /^environment variable MOLLIE_API_KEY: must be set when PAYMENT_PROVIDER=mollie/,
    );
  });

  it.each([
    "sk_live_abcdefghijklmnopqrstuvwxyz",
    "test_short",
    "live abcdefghijklmnopqrstuvwxyz",
    `access_${"a".repeat(30)}`,
  ])("a malformed key (%s) is refused without repeating it", (key) => {
    const attempt = () => readConfig({ ...secret, PAYMENT_PROVIDER: "mollie", MOLLIE_API_KEY: key });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/^environment variable MOLLIE_API_KEY: must be a Mollie API key/);
    expect(attempt).not.toThrow(key);
  });

  it("an unknown provider is refused, naming PAYMENT_PROVIDER", () => {
    expect(() => readConfig({ ...secret, PAYMENT_PROVIDER: "stripe" })).toThrow(
      /^environment variable PAYMENT_PROVIDER: must be test or mollie$/,
    );
  });
});

describe("choosing the payment provider", () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function deps() {
    database = openDatabase("sqlite::memory:");
    await migrateToLatest(database);
    return {
      database,
      testCheckoutUrl: (id: string, locale: string) => `http://shop.test/${locale}/test-payment/${id}`,
      log: { warn: () => {} },
    };
  }

  it("the test settings give the built-in test provider, with the shop's page as checkout", async () => {
    const provider = paymentProvider(readConfig(secret), await deps());

    expect(provider.name).toBe("test");
    const created = await provider.createPayment({
      amountCents: 100,
      description: "Bestelling FH-000001",
      locale: "de",
      redirectUrl: "http://shop.test/bestellung/FH-000001",
      webhookUrl: "http://shop.test/api/betalingen/webhook",
      idempotencyKey: "key-1",
    });
    expect(created.checkoutUrl).toBe(`http://shop.test/de/test-payment/${created.id}`);
  });

  it("the mollie settings give the Mollie provider, which knows Mollie's payment ids", async () => {
    const provider = paymentProvider(
      readConfig({ ...secret, PAYMENT_PROVIDER: "mollie", MOLLIE_API_KEY: mollieKey }),
      await deps(),
    );

    expect(provider.name).toBe("mollie");
    expect(provider.isPaymentId("tr_WDqYK6vllg")).toBe(true);
    expect(provider.isPaymentId("tp_AAAAAAAAAAAAAAAAAAAAAA")).toBe(false);
  });

  it("a hand-made mollie setting without a key is refused", async () => {
    const settings = { payments: { provider: "mollie" as const } };
    const shop = await deps();
    expect(() => paymentProvider(settings, shop)).toThrow(ConfigError);
    expect(() => paymentProvider(settings, shop)).toThrow(/MOLLIE_API_KEY/);
  });
});
