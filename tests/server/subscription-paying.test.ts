import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";
import { freePort } from "../support/shop-process.ts";
import { type Shopper, shopper, textOf } from "../support/shopper.ts";
import { signupLinkPath } from "../support/subscriptions.ts";

/**
 * Taking out the photo subscription as a subscriber does it without JavaScript: sign up, open
 * the link from the mail, confirm, decide the test payment (which calls the webhook over
 * HTTP, so the shop listens), and come back to the subscription's own page.
 */
let shop: TestShop;
let origin = "";
let clock = new Date("2026-11-28T10:00:00Z");

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  shop = await testShop({
    env: { PUBLIC_URL: origin, PAYMENT_PROVIDER: "test", SIGNUP_RATE_LIMIT: "1000" },
    now: () => clock,
  });
  await shop.app.listen({ port, host: "127.0.0.1" });
});
afterAll(() => shop.close());

const paths = {
  nl: {
    subscription: "/abonnement",
    signup: "/abonnement/aanmelden",
    link: /^\/abonnement\/bevestigen\/[\w-]{43}$/,
    testPayment: /^\/testbetaling\/tp_[\w-]+$/,
    status: /^\/abonnement\/status\/[\w-]{22}$/,
  },
  de: {
    subscription: "/abo",
    signup: "/abo/anmelden",
    link: /^\/abo\/bestaetigen\/[\w-]{43}$/,
    testPayment: /^\/testzahlung\/tp_[\w-]+$/,
    status: /^\/abo\/status\/[\w-]{22}$/,
  },
};
type Lang = keyof typeof paths;

const words = {
  nl: {
    summary: "Abonnement Premium voor Anna de Vries",
    firstPeriod: "Nu te betalen: € 4,99 voor de eerste maand.",
    confirm: "Bevestigen en betalen",
    recurring: "Je abonnement loopt elke maand vanzelf door",
    heading: "Je fotoabonnement Premium",
    price: "De eerste 3 maanden kost je abonnement € 4,99 per maand, daarna € 9,99 per maand.",
    active: "Actief",
    awaiting: "Wacht op betaling",
    paid: "Je betaling is ontvangen: je abonnement is actief.",
    paidUntil: "De eerste maand loopt tot en met zondag 27 december 2026.",
    failed: "De betaling is niet gelukt",
    payAgain: "Betaal opnieuw",
    invalid: "Deze link werkt niet meer",
    alreadyActive: "Je hebt al een fotoabonnement",
    unavailable: "Het betalen kon niet worden gestart",
  },
  de: {
    summary: "Abo Premium für Anna de Vries",
    firstPeriod: "Jetzt zu bezahlen: 4,99 € für den ersten Monat.",
    confirm: "Bestätigen und bezahlen",
    recurring: "Ihr Abo verlängert sich jeden Monat automatisch",
    heading: "Ihr Foto-Abo Premium",
    price: "In den ersten 3 Monaten kostet Ihr Abo 4,99 € pro Monat, danach 9,99 € pro Monat.",
    active: "Aktiv",
    awaiting: "Zahlung ausstehend",
    paid: "Ihre Zahlung ist eingegangen: Ihr Abo ist aktiv.",
    paidUntil: "Der erste Monat läuft bis einschließlich Sonntag, 27. Dezember 2026.",
    failed: "Die Zahlung ist nicht gelungen",
    payAgain: "Erneut bezahlen",
    invalid: "Dieser Link funktioniert nicht mehr",
    alreadyActive: "Sie haben bereits ein Foto-Abo",
    unavailable: "Die Zahlung konnte nicht gestartet werden",
  },
};

const password = "Zomer aan zee 2026!";
const main = (html: string) => textOf(/<main[\s\S]*<\/main>/.exec(html)?.[0] ?? html);
/** A Location as the browser follows it: the shop's absolute return URL read as a path. */
const pathOf = (location: unknown) => new URL(String(location), origin).pathname;
const db = () => shop.database.db;
/** The subscriptions of an address, through its account. */
const subscriptionsOf = (email: string) =>
  db()
    .selectFrom("subscriptions")
    .innerJoin("accounts", "accounts.id", "subscriptions.account_id")
    .selectAll("subscriptions")
    .where("accounts.email", "=", email)
    .execute();
const mailsTo = (email: string) =>
  db().selectFrom("outbox").select(["kind", "locale", "text_body"]).where("to_address", "=", email).execute();
const kindsTo = async (email: string) => (await mailsTo(email)).map((m) => m.kind);

/** Signs up for Premium (3 months at € 4.99) in a browser; returns the link mailed to the address. */
async function signUp(lang: Lang, email: string): Promise<string> {
  const s = await shopper(shop.app, paths[lang].subscription);
  const res = await s.post(paths[lang].signup, {
    plan: "premium",
    country: lang === "de" ? "DE" : "NL",
    name: "Anna de Vries",
    email,
    password,
    passwordConfirm: password,
  });
  expect(res.statusCode).toBe(303);
  const link = await signupLinkPath(db(), email);
  expect(link).toMatch(paths[lang].link);
  return link as string;
}

/** Opens the link and presses its button: the test payment page, as a path. */
async function confirm(s: Shopper, link: string): Promise<string> {
  expect((await s.get(link)).statusCode).toBe(200);
  const res = await s.post(link, {});
  expect(res.statusCode).toBe(303);
  return pathOf(res.headers.location);
}

/** Chooses an outcome on the test-payment page; returns the page the tester is sent back to. */
async function decide(s: Shopper, testPage: string, outcome: string): Promise<string> {
  expect(testPage).toMatch(/^\/test(betaling|zahlung)\//);
  expect((await s.get(testPage)).statusCode).toBe(200);
  const res = await s.post(testPage, { outcome });
  expect(res.statusCode).toBe(303);
  return pathOf(res.headers.location);
}

describe.each(["nl", "de"] as const)("taking out the subscription (%s)", (lang) => {
  const w = words[lang];

  it("the link's page says what is paid now and that nothing renews by itself; opening it changes nothing", async () => {
    const email = `look-${lang}@example.test`;
    const link = await signUp(lang, email);
    const s = await shopper(shop.app, paths[lang].subscription);
    const page = await s.get(link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<meta name="robots" content="noindex/);
    const text = main(page.body);
    expect(text).toContain(w.summary);
    expect(text).toContain(w.firstPeriod);
    expect(text).toContain(w.recurring);
    expect(text).toContain(w.confirm);
    expect(await subscriptionsOf(email)).toEqual([]);
  });

  it("confirmed and paid: the subscription is active until a month from now, with one welcome mail", async () => {
    const email = `paid-${lang}@example.test`;
    const link = await signUp(lang, email);
    const s = await shopper(shop.app, paths[lang].subscription);
    const testPage = await confirm(s, link);
    expect(testPage).toMatch(paths[lang].testPayment);
    const testText = main((await s.get(testPage)).body);
    expect(testText).toContain("4,99");
    expect(testText).toContain("Premium");
    // Confirmed, not paid: no welcome yet.
    expect(await kindsTo(email)).toEqual(["subscription-confirm"]);

    const statusPage = await decide(s, testPage, "paid");
    expect(statusPage).toMatch(paths[lang].status);
    const page = await s.get(statusPage);
    expect(page.statusCode).toBe(200);
    const text = main(page.body);
    expect(text).toContain(w.heading);
    expect(text).toContain(w.price);
    expect(text).toContain(w.active);
    expect(text).toContain(w.paid);
    expect(text).toContain(w.paidUntil);
    expect(text).toContain(w.recurring);
    expect(text).not.toContain(w.payAgain);

    const mails = await mailsTo(email);
    expect(mails.map((m) => m.kind)).toEqual(["subscription-confirm", "subscription-welcome"]);
    expect(mails[1]?.locale).toBe(lang);
    expect(mails[1]?.text_body).toContain("4,99");
    expect(mails[1]?.text_body).toContain(
      lang === "nl" ? "zondag 27 december 2026" : "Sonntag, 27. Dezember 2026",
    );
    const [row] = await subscriptionsOf(email);
    expect(row).toMatchObject({ status: "active", paid_until: "2026-12-27", plan_id: "premium" });
  });

  it("failed, then paid again from its page with a chosen method", async () => {
    const email = `failed-${lang}@example.test`;
    const s = await shopper(shop.app, paths[lang].subscription);
    const first = await confirm(s, await signUp(lang, email));
    const statusPage = await decide(s, first, "failed");
    const text = main((await s.get(statusPage)).body);
    expect(text).toContain(w.failed);
    expect(text).toContain(w.awaiting);
    expect(text).toContain(w.payAgain);
    const failedMail = (await mailsTo(email)).find((m) => m.kind === "subscription-payment-failed");
    expect(failedMail?.text_body).toContain(`${origin}${statusPage}`);

    const pay = await s.post(statusPage, { method: "creditcard" });
    const second = pathOf(pay.headers.location);
    expect(second).toMatch(paths[lang].testPayment);
    expect(second).not.toBe(first);
    expect(await decide(s, second, "paid")).toBe(statusPage);
    expect(main((await s.get(statusPage)).body)).toContain(w.active);
    expect((await kindsTo(email)).filter((k) => k === "subscription-welcome")).toHaveLength(1);
  });

  it("cancelled at the provider: it still waits for payment and offers to pay again", async () => {
    const email = `cancelled-${lang}@example.test`;
    const s = await shopper(shop.app, paths[lang].subscription);
    const statusPage = await decide(s, await confirm(s, await signUp(lang, email)), "canceled");
    const text = main((await s.get(statusPage)).body);
    expect(text).toContain(w.awaiting);
    expect(text).toContain(w.payAgain);
    expect(await kindsTo(email)).not.toContain("subscription-welcome");
  });
});

describe("the sign-up link", () => {
  it("pressed twice (or reloaded) starts one payment, and is spent for any other browser", async () => {
    const email = "twice@example.test";
    const link = await signUp("nl", email);
    const s = await shopper(shop.app, paths.nl.subscription);
    const first = await confirm(s, link);
    const again = await s.post(link, {});
    expect(pathOf(again.headers.location)).toBe(first);
    const [subscription] = await subscriptionsOf(email);
    const payments = await db()
      .selectFrom("subscription_payments")
      .selectAll()
      .where("subscription_id", "=", subscription?.id ?? "")
      .execute();
    expect(payments).toHaveLength(1);
    // The same browser opening the link again goes to its subscription; another finds it spent.
    const statusPage = await decide(s, first, "open");
    const reopened = await s.get(link);
    expect(reopened.statusCode).toBe(303);
    expect(pathOf(reopened.headers.location)).toBe(statusPage);
    const other = await shopper(shop.app, paths.nl.subscription);
    const spent = await other.get(link);
    expect(spent.statusCode).toBe(410);
    expect(main(spent.body)).toContain(words.nl.invalid);
    expect((await other.post(link, {})).statusCode).toBe(410);
  });

  it("mistyped, tampered with or a day old, it shows a page offering to sign up again, in its language", async () => {
    const s = await shopper(shop.app, paths.de.subscription);
    const link = await signUp("de", "late@example.test");
    const tampered = `${link.slice(0, -2)}${link.endsWith("AA") ? "BB" : "AA"}`;
    for (const path of [tampered, "/abo/bestaetigen/kort", "/abo/bestaetigen/%3Cscript%3E"]) {
      const res = await s.get(path);
      expect(res.statusCode, path).toBe(404);
      expect(main(res.body), path).toContain(words.de.invalid);
      expect(main(res.body), path).toContain("Erneut anmelden");
    }
    clock = new Date(clock.getTime() + 24 * 3_600_000);
    try {
      const res = await s.get(link);
      expect(res.statusCode).toBe(410);
      expect(main(res.body)).toContain("24 Stunden");
      expect((await s.post(link, {})).statusCode).toBe(410);
    } finally {
      clock = new Date(clock.getTime() - 24 * 3_600_000);
    }
    expect(await subscriptionsOf("late@example.test")).toEqual([]);
  });

  it("for an address whose subscription became active meanwhile, says so and starts no payment", async () => {
    const email = "two-links@example.test";
    const firstLink = await signUp("nl", email);
    const secondLink = await signUp("nl", email);
    const s = await shopper(shop.app, paths.nl.subscription);
    await decide(s, await confirm(s, firstLink), "paid");
    const payments = (await db().selectFrom("subscription_payments").selectAll().execute()).length;
    const res = await s.post(secondLink, {});
    expect(res.statusCode).toBe(200);
    expect(main(res.body)).toContain(words.nl.alreadyActive);
    expect(await db().selectFrom("subscription_payments").selectAll().execute()).toHaveLength(payments);
  });
});

describe("the subscription's page", () => {
  it("does not exist for another browser, or for an address that is no subscription", async () => {
    const s = await shopper(shop.app, paths.nl.subscription);
    const statusPage = await decide(s, await confirm(s, await signUp("nl", "mine@example.test")), "open");
    const stranger = await shopper(shop.app, paths.nl.subscription);
    expect((await stranger.get(statusPage)).statusCode).toBe(404);
    expect((await stranger.post(statusPage, {})).statusCode).toBe(404);
    expect((await s.get("/abonnement/status/nonsense")).statusCode).toBe(404);
    // The browser that confirmed it may read it in the other language too.
    const german = await s.get(statusPage.replace("/abonnement/", "/abo/"));
    expect(german.statusCode).toBe(200);
    expect(main(german.body)).toContain(words.de.awaiting);
  });

  it("when the provider cannot be reached, says so; the subscription waits and is paid from its page later", async () => {
    const email = "unavailable@example.test";
    const link = await signUp("nl", email);
    const s = await shopper(shop.app, paths.nl.subscription);
    await s.get(link);
    // The test provider keeps its payments in the shop's database: without its table it is down.
    await sql`ALTER TABLE test_payments RENAME TO test_payments_away`.execute(db());
    let statusPage: string;
    try {
      const res = await s.post(link, {});
      expect(res.statusCode).toBe(303);
      statusPage = pathOf(res.headers.location);
      expect(statusPage).toMatch(paths.nl.status);
      const text = main((await s.get(statusPage)).body);
      expect(text).toContain(words.nl.unavailable);
      expect(text).toContain(words.nl.awaiting);
    } finally {
      await sql`ALTER TABLE test_payments_away RENAME TO test_payments`.execute(db());
    }
    const pay = await s.post(statusPage, {});
    expect(await decide(s, pathOf(pay.headers.location), "paid")).toBe(statusPage);
    expect(main((await s.get(statusPage)).body)).toContain(words.nl.active);
  });

  it("with JavaScript, its payment part comes alone, for the island that asks until the payment is decided", async () => {
    const s = await shopper(shop.app, paths.nl.subscription);
    const statusPage = await decide(s, await confirm(s, await signUp("nl", "island@example.test")), "open");
    const fragment = await s.get(statusPage, { "x-requested-with": "XMLHttpRequest" });
    expect(fragment.statusCode).toBe(200);
    expect(fragment.body).toMatch(/^<section class="payment-status payment-status--open"/);
    expect(fragment.body).toContain('data-island="payment-status"');
    expect(fragment.body).toContain("&quot;final&quot;:false");
  });
});
