/**
 * The environment of the shop the journeys run against: the web server's (playwright.config.ts)
 * and that of the staff commands a journey runs on the same shop, such as
 * `npm run subscriptions`, so that both use one database, one address and one provider.
 */
export function shopEnv(baseURL: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    // Production requires the choice to be explicit; the journeys pay through the test provider.
    PAYMENT_PROVIDER: "test",
    PORT: new URL(baseURL).port,
    HOST: "127.0.0.1",
    // A production start names its address, too.
    PUBLIC_URL: baseURL,
    DATA_DIR: process.env.E2E_DATA_DIR ?? "",
    COOKIE_SECRET: "e2e-cookie-secret-that-is-long-enough-0123456789",
    LOG_LEVEL: "warn",
    // The pattern library shows every behaviour live; the behaviour journeys use it.
    PATTERN_LIBRARY: "true",
    // Every journey posts from 127.0.0.1; the limits per client are tested in tests/server.
    CONTACT_RATE_LIMIT: "10000",
    SIGNUP_RATE_LIMIT: "10000",
    CART_RATE_LIMIT: "10000",
    CART_CHANGE_RATE_LIMIT: "10000",
    ADDRESS_RATE_LIMIT: "10000",
    UPLOAD_RATE_LIMIT: "10000",
    PROJECT_RATE_LIMIT: "10000",
    ANALYTICS_RATE_LIMIT: "10000",
  };
}
