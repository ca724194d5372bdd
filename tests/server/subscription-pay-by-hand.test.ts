import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { projectRoot } from "../../server/config.ts";
import { createI18n, loadMessages } from "../../server/i18n/index.ts";
import { runRenewals } from "../../server/jobs/subscription-renewal.ts";
import { subscriptionCharges } from "../../server/payments/subscription-charges.ts";
import { testPaymentProvider } from "../../server/payments/test-provider.ts";
import type { Database } from "../../server/store/database.ts";
import { subscriptionRepository } from "../../server/store/subscription-repository.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { testDatabases } from "../support/databases.ts";
import { freePort } from "../support/shop-process.ts";
import { shopper, textOf } from "../support/shopper.ts";
import { signupLinkPath } from "../support/subscriptions.ts";

/**
 * A failed charge's mail carries a link that pays the month by hand (ADR 0106): its page
 * needs no signing in, its button goes to the test provider's page, and the webhook of the
 * paid payment makes the subscription active again, the period paid, the retries stopped.
 */
const i18n = createI18n(loadMessages(resolve(projectRoot, "locales")), (key) => {
  throw new Error(`missing text ${key}`);
});
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const password = "Zomer aan zee 2026!";

describe.each(testDatabases())("paying a failed month by hand on $name", (target) => {
  let shop: TestShop | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  let origin = "";
  afterEach(async () => {
    await shop?.app.close();
    shop = undefined;
    await cleanup?.();
    cleanup = undefined;
  });

  async function open() {
    const opened = await target.open();
    cleanup = opened.cleanup;
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    shop = await testShop({
      env: { PUBLIC_URL: origin, PAYMENT_PROVIDER: "test", SIGNUP_RATE_LIMIT: "1000" },
      now: () => new Date("2026-11-28T10:00:00Z"),
      database: { ...opened.database, close: async () => {} },
    });
    await shop.app.listen({ port, host: "127.0.0.1" });
    return opened.database;
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

  /** Signs up for Premium (3 months at € 4,99, then € 9,99), confirms and pays: an active subscription. */
  async function subscribe(lang: "nl" | "de", email: string) {
    const app = (shop as TestShop).app;
    const s = await shopper(app, lang === "nl" ? "/abonnement" : "/abo");
    const signup = await s.post(lang === "nl" ? "/abonnement/aanmelden" : "/abo/anmelden", {
      plan: "premium",
      name: "Anna de Vries",
      email,
      password,
      passwordConfirm: password,
    });
    expect(signup.statusCode).toBe(303);
    const link = (await signupLinkPath((shop as TestShop).database.db, email)) as string;
    const confirmed = await s.post(link, {});
    const testPage = new URL(String(confirmed.headers.location), origin).pathname;
    expect((await s.post(testPage, { outcome: "paid" })).statusCode).toBe(303);
    const [row] = await rows(email);
    expect(row).toMatchObject({ status: "active", paid_until: "2026-12-27", started_on: "2026-11-28" });
    expect(row?.mandate_id).toMatch(/^mdt_/);
    return { s, id: String(row?.id) };
  }

  const rows = (email: string) =>
    (shop as TestShop).database.db
      .selectFrom("subscriptions")
      .innerJoin("accounts", "accounts.id", "subscriptions.account_id")
      .selectAll("subscriptions")
      .where("accounts.email", "=", email)
      .execute();
  const mails = (email: string) =>
    (shop as TestShop).database.db
      .selectFrom("outbox")
      .select(["kind", "locale", "text_body"])
      .where("to_address", "=", email)
      .orderBy("id")
      .execute();
  const charges = (id: string) =>
    (shop as TestShop).database.db
      .selectFrom("subscription_charges")
      .selectAll()
      .where("subscription_id", "=", id)
      .orderBy("period_start")
      .orderBy("attempt")
      .execute();

  /** The tester's choice on a charge's test page. */
  async function decide(pageUrl: string | null, outcome: "paid" | "failed") {
    const page = new URL(String(pageUrl), origin).pathname;
    const s = await shopper((shop as TestShop).app, page);
    expect((await s.post(page, { outcome })).statusCode).toBe(303);
  }

  const payLink = async (email: string, kind: string, lang: "nl" | "de") => {
    const mail = (await mails(email)).filter((m) => m.kind === kind).at(-1);
    const prefix = lang === "nl" ? "/abonnement/betalen/" : "/abo/bezahlen/";
    const found = new RegExp(`${origin}(${prefix}[\\w-]{43})\\n`).exec(String(mail?.text_body));
    expect(found, `${kind} mail with a link`).not.toBeNull();
    return found?.[1] as string;
  };
  const byHand = (id: string) =>
    (shop as TestShop).database.db
      .selectFrom("by_hand_payments")
      .selectAll()
      .where("subscription_id", "=", id)
      .orderBy("attempt")
      .execute();

  it("pays a past-due month from the mail's link without signing in; paid, it runs again", async () => {
    const database = await open();
    const { charges: job } = instance(database);
    const renew = (day: string) => runRenewals({ database, charges: job, log: silent }, day);
    const email = "by-hand@example.test";
    const { id } = await subscribe("nl", email);
    const before = (await rows(email))[0]?.mandate_id;
    await renew("2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "failed");
    expect((await rows(email))[0]?.status).toBe("past_due");
    const link = await payLink(email, "subscription-charge-failed", "nl");

    // Another browser, no cookies: the mail's link is the proof.
    const other = await shopper((shop as TestShop).app, "/");
    const page = await other.get(link);
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toContain("no-store");
    const text = textOf(page.body);
    expect(text).toContain("Betaal de openstaande maand van je fotoabonnement Premium");
    expect(text).toContain("maandag 28 december 2026 t/m woensdag 27 januari 2027");
    expect(text).toMatch(/€\s4,99/);
    expect(text).toContain("Betaling mislukt: we proberen het opnieuw");
    expect(page.body).toContain("Nu betalen</button>");
    expect(page.body).toContain('<meta name="robots" content="noindex');

    // The button goes to the provider; pressing it again gives the same payment back.
    const started = await other.post(link, {});
    expect(started.statusCode).toBe(303);
    const testPage = String(started.headers.location);
    expect(testPage).toMatch(new RegExp(`^${origin}/testbetaling/tp_`));
    const again = await other.post(link, {});
    expect(again.headers.location).toBe(testPage);
    expect(await byHand(id)).toHaveLength(1);
    // Under way, the page says so and offers no second button.
    const pending = await other.get(link);
    expect(textOf(pending.body)).toContain("Je betaling wordt nog verwerkt.");
    expect(pending.body).not.toContain("Nu betalen</button>");

    await decide(testPage, "paid");
    const [row] = await rows(email);
    expect(row).toMatchObject({ status: "active", paid_from: "2026-12-28", paid_until: "2027-01-27" });
    // A first payment: the method just used gives the mandate the next months are charged on.
    expect(row?.mandate_id).toMatch(/^mdt_/);
    expect(row?.mandate_id).not.toBe(before);
    const paid = (await mails(email)).filter((m) => m.kind === "subscription-paid-by-hand");
    expect(paid).toHaveLength(1);
    expect(paid[0]?.text_body).toContain("Je fotoabonnement Premium loopt weer");
    expect(paid[0]?.text_body).toContain("maandag 28 december 2026 t/m woensdag 27 januari 2027");
    expect((await byHand(id)).map((p) => p.status)).toEqual(["paid"]);

    // Paid: the page says so; a second press starts nothing.
    const done = await other.get(link);
    expect(textOf(done.body)).toContain("Deze maand is betaald.");
    expect(done.body).not.toContain("Nu betalen</button>");
    const twice = await other.post(link, {});
    expect(twice.statusCode).toBe(409);
    expect(await byHand(id)).toHaveLength(1);

    // The retry after 3 days does not come: the period is paid. The next one is charged on the new mandate.
    expect(await renew("2026-12-31")).toMatchObject({ counts: { charged: 0 } });
    expect(await renew("2027-01-28")).toMatchObject({ counts: { charged: 1 } });
    const next = (await charges(id)).at(-1);
    expect(next).toMatchObject({ period_start: "2027-01-28", attempt: 1, amount_cents: 499 });
    expect((await mails(email)).filter((m) => m.kind === "subscription-paid-by-hand")).toHaveLength(1);
  });

  it("a suspended subscription is paid by hand in German; a failed try leaves it suspended, tried again", async () => {
    const database = await open();
    const { charges: job } = instance(database);
    const renew = (day: string) => runRenewals({ database, charges: job, log: silent }, day);
    const email = "by-hand-de@example.test";
    const { id } = await subscribe("de", email);
    await renew("2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "failed");
    await renew("2026-12-31");
    await decide((await charges(id))[1]?.page_url ?? null, "failed");
    await renew("2027-01-04");
    await decide((await charges(id))[2]?.page_url ?? null, "failed");
    expect((await rows(email))[0]?.status).toBe("suspended");
    const suspended = (await mails(email)).filter((m) => m.kind === "subscription-suspended");
    expect(suspended[0]?.text_body).toContain("Bezahlen Sie den offenen Monat selbst");
    expect(suspended[0]?.text_body).not.toContain("Kundenservice");
    const link = await payLink(email, "subscription-suspended", "de");
    // The failed mail's older link pays the same month.
    const older = await payLink(email, "subscription-charge-failed", "de");
    expect(older).not.toBe(link);

    const other = await shopper((shop as TestShop).app, "/");
    const page = textOf((await other.get(link)).body);
    expect(page).toContain("Bezahlen Sie den offenen Monat Ihres Foto-Abos Premium");
    expect(page).toContain("Pausiert");
    expect(page).toContain("Montag, 28. Dezember 2026 bis Mittwoch, 27. Januar 2027");

    const first = await other.post(link, {});
    await decide(String(first.headers.location), "failed");
    expect((await rows(email))[0]?.status).toBe("suspended");
    const failedPage = await other.get(link);
    expect(textOf(failedPage.body)).toContain("Ihre Zahlung ist fehlgeschlagen");
    expect(failedPage.body).toContain("Jetzt bezahlen</button>");

    const second = await other.post(older, {});
    expect(second.headers.location).not.toBe(first.headers.location);
    await decide(String(second.headers.location), "paid");
    expect((await rows(email))[0]).toMatchObject({ status: "active", paid_until: "2027-01-27" });
    expect((await byHand(id)).map((p) => [p.attempt, p.status])).toEqual([
      [1, "failed"],
      [2, "paid"],
    ]);
    expect((await mails(email)).filter((m) => m.kind === "subscription-paid-by-hand")).toHaveLength(1);
    expect(textOf((await other.get(link)).body)).toContain("Dieser Monat ist bezahlt.");
  });

  it("a wrong or expired link shows the same page for every address and starts nothing", async () => {
    const database = await open();
    const { charges: job } = instance(database);
    const email = "by-hand-old@example.test";
    const { id } = await subscribe("nl", email);
    await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "failed");
    const link = await payLink(email, "subscription-charge-failed", "nl");
    const other = await shopper((shop as TestShop).app, "/");

    const wrong = await other.get(`/abonnement/betalen/${"x".repeat(43)}`);
    expect(wrong.statusCode).toBe(404);
    expect(textOf(wrong.body)).toContain("Deze betaallink werkt niet (meer)");
    expect((await other.get("/abonnement/betalen/kort")).statusCode).toBe(404);
    expect((await other.post(`/abonnement/betalen/${"x".repeat(43)}`, {})).statusCode).toBe(404);

    // Mailed more than 60 days before the shop's today.
    await database.db
      .updateTable("subscription_charges")
      .set({ failure_mailed_at: "2026-09-01T10:00:00.000Z" })
      .where("subscription_id", "=", id)
      .execute();
    const expired = await other.get(link);
    expect(expired.statusCode).toBe(410);
    expect(textOf(expired.body)).toContain("ouder dan 60 dagen");
    expect((await other.post(link, {})).statusCode).toBe(410);
    expect(await byHand(id)).toHaveLength(0);
    expect((await rows(email))[0]?.status).toBe("past_due");
  });

  it("a post from another site is refused (Fetch Metadata)", async () => {
    const database = await open();
    const { charges: job } = instance(database);
    const email = "by-hand-csrf@example.test";
    const { id } = await subscribe("nl", email);
    await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "failed");
    const link = await payLink(email, "subscription-charge-failed", "nl");
    const forged = await (shop as TestShop).app.inject({
      method: "POST",
      url: link,
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });
    expect(forged.statusCode).toBe(403);
    expect(await byHand(id)).toHaveLength(0);
  });
});
