import { ConfigError, type PaymentSettings } from "../config.ts";
import type { Locale } from "../i18n/locales.ts";
import type { Database } from "../store/database.ts";
import { type MollieProvider, mollieProvider } from "./mollie.ts";
import { type TestPaymentProvider, testPaymentProvider } from "./test-provider.ts";

export interface PaymentProviderDeps {
  /** Where the test provider keeps its payments. */
  database: Database;
  /** The shop's translated test-payment page for a test payment. */
  testCheckoutUrl: (id: string, locale: Locale) => string;
  log: { warn(message: string): void };
  /** Mollie's API root, for tests against a local fake; Mollie's own by default. */
  mollieApiEndpoint?: string;
}

/**
 * One of the two providers; `provider.name === "test"` narrows to the test provider, which
 * also settles payments for the shop's test-payment page.
 */
export type ChosenProvider = MollieProvider | TestPaymentProvider;

/**
 * The provider the settings name. readConfig has already refused what cannot work (mollie
 * without a key, no choice at all in a production start), so this only builds.
 */
export function paymentProvider(
  config: { payments: PaymentSettings },
  deps: PaymentProviderDeps,
): ChosenProvider {
  const { provider, mollieApiKey } = config.payments;
  if (provider === "mollie") {
    // readConfig guarantees the key; this guards a config built by hand.
    if (!mollieApiKey)
      throw new ConfigError("environment variable MOLLIE_API_KEY: must be set when PAYMENT_PROVIDER=mollie");
    return mollieProvider({
      apiKey: mollieApiKey,
      ...(deps.mollieApiEndpoint ? { apiEndpoint: deps.mollieApiEndpoint } : {}),
    });
  }
  return testPaymentProvider({ db: deps.database.db, checkoutUrl: deps.testCheckoutUrl, log: deps.log });
}

export type { MollieProvider } from "./mollie.ts";
export * from "./provider.ts";
export type { TestOutcome, TestPayment, TestPaymentProvider } from "./test-provider.ts";
export { isTestOutcome, testOutcomes } from "./test-provider.ts";
