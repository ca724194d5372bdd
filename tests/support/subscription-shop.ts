import { resolve } from "node:path";
import { afterEach, expect } from "vitest";
import { projectRoot } from "../../server/config.ts";
import { createI18n, loadMessages } from "../../server/i18n/index.ts";
import { subscriptionCharges } from "../../server/payments/subscription-charges.ts";
import { testPaymentProvider } from "../../server/payments/test-provider.ts";
import type { Database } from "../../server/store/database.ts";
import { subscriptionRepository } from "../../server/store/subscription-repository.ts";
import { type TestShop, testShop } from "./app.ts";
import type { TestDatabase } from "./databases.ts";
import { freePort } from "./shop-process.ts";
import { shopper } from "./shopper.ts";
import { signupLinkPath } from "./subscriptions.ts";

export const i18n = createI18n(loadMessages(resolve(projectRoot, "locales")), (key) => {
  throw new Error(`missing text ${key}`);
});
export const silent = { info: () => {}, warn: () => {}, error: () => {} };
export const password = "Zomer aan zee 2026!";

/**
 * A shop listening on a real port (the test provider's webhooks reach it), on one of the
 * test databases, with what the renewal command builds beside it: the setting of the tests
 * of a subscription month after month. Call it inside a `describe`: it closes the shop and
 * drops its database after each test. The shop's clock says 28 November 2026 until a test
 * sets it (`setClock`); the renewal job's day is the one each run is given.
 */
export function subscriptionShop(target: TestDatabase) {
  const start = "2026-11-28T10:00:00Z";
  let shop: TestShop | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  let origin = "";
  let clock = new Date(start);
  async function close() {
    await shop?.app.close();
    shop = undefined;
    await cleanup?.();
    cleanup = undefined;
  }
  afterEach(async () => {
    await close();
    clock = new Date(start);
  });

  const current = (): TestShop => {
    if (!shop) throw new Error("open() the shop first");
    return shop;
  };

  /** Starts the shop, with `env` over the tests' settings. */
  async function open(env: Record<string, string> = {}): Promise<TestShop> {
    const opened = await target.open();
    cleanup = opened.cleanup;
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    shop = await testShop({
      env: { PUBLIC_URL: origin, PAYMENT_PROVIDER: "test", SIGNUP_RATE_LIMIT: "1000", ...env },
      now: () => clock,
      database: { ...opened.database, close: async () => {} },
    });
    await shop.app.listen({ port, host: "127.0.0.1" });
    return shop;
  }

  /** What the renewal command builds: the provider and the charges, on the shop's database. */
  function instance(database: Database) {
    const provider = testPaymentProvider({
      db: database.db,
      checkoutUrl: (id, locale) => `${origin}${i18n.routes.pathFor("testPayment", locale, { payment: id })}`,
      log: silent,
    });
    const deps = {
      db: database.db,
      provider,
      subscriptions: subscriptionRepository(database.db),
      i18n,
      log: silent,
      now: () => new Date(),
    };
    return { provider, deps, charges: subscriptionCharges({ ...deps, origin }) };
  }

  const rows = (email: string) =>
    current()
      .database.db.selectFrom("subscriptions")
      .innerJoin("accounts", "accounts.id", "subscriptions.account_id")
      .selectAll("subscriptions")
      .where("accounts.email", "=", email)
      .execute();
  const mails = (email: string) =>
    current()
      .database.db.selectFrom("outbox")
      .select(["kind", "locale", "subject", "text_body"])
      .where("to_address", "=", email)
      .orderBy("id")
      .execute();
  const charges = (id: string) =>
    current()
      .database.db.selectFrom("subscription_charges")
      .selectAll()
      .where("subscription_id", "=", id)
      .orderBy("period_start")
      .orderBy("attempt")
      .execute();
  const byHand = (id: string) =>
    current()
      .database.db.selectFrom("by_hand_payments")
      .selectAll()
      .where("subscription_id", "=", id)
      .orderBy("attempt")
      .execute();

  /**
   * Signs up for `plan` (Premium: 3 months at € 4,99, then € 9,99; Plus: 3 at € 2,99, then
   * € 5,99) through the shop's pages, confirms and pays the first month on the test
   * provider's page: an active subscription with a mandate. Answers the shopper who did it
   * and the subscription's row. The subscriber lives in the country of `lang` unless `country` says otherwise.
   */
  async function subscribe(
    lang: "nl" | "de",
    email: string,
    plan: "basis" | "plus" | "premium" = "premium",
    country: "NL" | "DE" = lang === "de" ? "DE" : "NL",
  ) {
    const s = await shopper(current().app, lang === "nl" ? "/abonnement" : "/abo");
    const signup = await s.post(lang === "nl" ? "/abonnement/aanmelden" : "/abo/anmelden", {
      plan,
      country,
      name: "Anna de Vries",
      email,
      password,
      passwordConfirm: password,
    });
    expect(signup.statusCode).toBe(303);
    const link = (await signupLinkPath(current().database.db, email)) as string;
    const confirmed = await s.post(link, {});
    const testPage = new URL(String(confirmed.headers.location), origin).pathname;
    expect((await s.post(testPage, { outcome: "paid" })).statusCode).toBe(303);
    const [row] = await rows(email);
    expect(row?.status).toBe("active");
    expect(row?.mandate_id).toMatch(/^mdt_/);
    if (!row) throw new Error(`no subscription for ${email}`);
    return { s, id: row.id, row };
  }

  /** The tester's choice on a charge's test page. */
  async function decide(pageUrl: string | null, outcome: "paid" | "failed") {
    const page = new URL(String(pageUrl), origin).pathname;
    const s = await shopper(current().app, page);
    expect((await s.post(page, { outcome })).statusCode).toBe(303);
  }

  /** The pay-by-hand link in the newest mail of `kind`, as a path. */
  async function payLink(email: string, kind: string, lang: "nl" | "de") {
    const mail = (await mails(email)).filter((m) => m.kind === kind).at(-1);
    const prefix = lang === "nl" ? "/abonnement/betalen/" : "/abo/bezahlen/";
    const found = new RegExp(`${origin}(${prefix}[\\w-]{43})\\n`).exec(String(mail?.text_body));
    expect(found, `${kind} mail with a link`).not.toBeNull();
    return found?.[1] as string;
  }

  return {
    open,
    /** Stops the shop and drops its database before the test ends (after it, it happens anyway). */
    close,
    /** Sets the shop's clock (not the renewal job's day) for the rest of the test. */
    setClock(at: string) {
      clock = new Date(at);
    },
    instance,
    subscribe,
    decide,
    payLink,
    rows,
    mails,
    charges,
    byHand,
    /** The listening shop; open() first. */
    get shop() {
      return current();
    },
    /** The shop's address, as its mails and the test provider's pages give it. */
    get origin() {
      return origin;
    },
  };
}
