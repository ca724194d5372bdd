import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { orderLinkCode } from "../../../server/domain/order-link.ts";
import { createI18n, loadMessages } from "../../../server/i18n/index.ts";
import type { Locale } from "../../../server/i18n/locales.ts";
import { mollieProvider } from "../../../server/payments/mollie.ts";
import { type OrderPayments, orderPayments } from "../../../server/payments/order-payments.ts";
import type { PaymentProvider } from "../../../server/payments/provider.ts";
import { type TestPaymentProvider, testPaymentProvider } from "../../../server/payments/test-provider.ts";
import type { Database } from "../../../server/store/database.ts";
import { orderLifecycleRepository } from "../../../server/store/order-lifecycle-repository.ts";
import { orderRepository } from "../../../server/store/order-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { type FakeMollie, startFakeMollie, trustFakeMollie } from "../../support/fake-mollie.ts";
import { testLegalPages } from "../../support/legal.ts";
import { orderRow } from "../../support/orders.ts";

const i18n = createI18n(loadMessages(paths.locales), () => {});
const origin = "http://127.0.0.1:9";
/** Wednesday 10 June 2026, 10:00 in Amsterdam: a working day before the cut-off. */
const paidAt = new Date("2026-06-10T08:00:00Z");

/** Anna's order as the checkout stores it, with one line, in the language asked for. */
async function placeOrder(database: Database, locale: Locale = "nl") {
  const row = await database.db
    .insertInto("orders")
    .values({
      ...orderRow(`key-${randomBytes(8).toString("hex")}`, "cart-anna"),
      locale,
      ...(locale === "de"
        ? { name: "Anja", street: "Hauptstraße 1", postcode: "10115", city: "Berlin", country: "DE" }
        : {}),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const orderId = Number(row.id);
  await database.db
    .insertInto("order_lines")
    .values({
      order_id: orderId,
      position: 1,
      product_id: "exclusive-photobook",
      orientation: "portrait",
      size_id: "21x30",
      product_name: locale === "de" ? "Fotobuch" : "Fotoboek",
      quantity: 1,
      unit_cents: 4999,
      total_cents: 4999,
      project_id: null,
    })
    .execute();
  return orderId;
}

interface Logged {
  level: "info" | "warn" | "error";
  args: unknown[];
}

function recordingLog(lines: Logged[]) {
  return {
    info: (...args: unknown[]) => lines.push({ level: "info", args }),
    warn: (...args: unknown[]) => lines.push({ level: "warn", args }),
    error: (...args: unknown[]) => lines.push({ level: "error", args }),
  } as never;
}

/** The shop's secret the order pages' links are made with (COOKIE_SECRET in the shop). */
const linkSecret = "a secret for the order pages' links";

function paymentsOn(database: Database, provider: PaymentProvider, log: Logged[], mailed: { count: number }) {
  return orderPayments({
    db: database.db,
    provider,
    orders: orderRepository(database.db),
    lifecycle: orderLifecycleRepository(database.db),
    i18n,
    routes: i18n.routes,
    legal: testLegalPages(i18n),
    log: recordingLog(log),
    now: () => paidAt,
    orderLinkSecret: linkSecret,
    mailQueued: () => {
      mailed.count++;
    },
  });
}

const mails = (database: Database, orderId?: number) =>
  database.db
    .selectFrom("outbox")
    .select(["kind", "locale", "to_address", "subject", "text_body"])
    .orderBy("id")
    .execute()
    .then((rows) =>
      orderId === undefined ? rows : rows.filter((row) => row.subject.includes(String(100_000 + orderId))),
    );

const statusOf = async (database: Database, orderId: number) =>
  (
    await database.db
      .selectFrom("orders")
      .select("status")
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow()
  ).status;

const paymentIdOf = (checkoutUrl: string) => checkoutUrl.split("/").pop() as string;

describe.each(testDatabases())("an order's payments through the test provider on $name", (target) => {
  const open = databasePerTest(target);
  let database: Database;
  let provider: TestPaymentProvider;
  let payments: OrderPayments;
  let log: Logged[];
  let mailed: { count: number };

  beforeEach(async () => {
    database = await open();
    log = [];
    mailed = { count: 0 };
    // The webhook goes nowhere here: these tests ask for the status themselves (sync).
    provider = testPaymentProvider({
      db: database.db,
      checkoutUrl: (id, locale) => `/${locale === "nl" ? "testbetaling" : "testzahlung"}/${id}`,
      log: { warn: () => {} },
      webhookRetryDelaysMs: [],
    });
    payments = paymentsOn(database, provider, log, mailed);
  });
  afterEach(async () => {
    await provider.idle();
  });

  it("starts a payment for the order's total, in its language, returning to its page", async () => {
    const orderId = await placeOrder(database, "de");

    const started = await payments.start(orderId, { origin });

    expect(started.kind).toBe("started");
    if (started.kind !== "started") return;
    const details = await provider.details(paymentIdOf(started.checkoutUrl));
    expect(details).toMatchObject({
      amountCents: 5494,
      locale: "de",
      // The return holds the order's own secret: the cookie of the browser that ordered opens nothing.
      redirectUrl: `${origin}/bestellung/${100_000 + orderId}?code=${orderLinkCode(linkSecret, orderId)}`,
      webhookUrl: `${origin}/api/betalingen/webhook`,
      description: `Bestellung ${100_000 + orderId} bei Fotohoek`,
    });
    expect(await payments.latest(orderId)).toEqual({ paymentId: details?.id, status: "open" });
  });

  it("a second start while the payment is open gives the same payment, not a new one", async () => {
    const orderId = await placeOrder(database);

    const [first, second] = await Promise.all([
      payments.start(orderId, { origin }),
      payments.start(orderId, { origin }),
    ]);
    const third = await payments.start(orderId, { origin, method: "ideal" });

    expect(second).toEqual(first);
    expect(third).toEqual(first);
    const rows = await database.db.selectFrom("order_payments").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(await database.db.selectFrom("test_payments").selectAll().execute()).toHaveLength(1);
  });

  it("paid: the order is paid, with one transition and one confirmation mail naming amount and dispatch", async () => {
    const orderId = await placeOrder(database);
    const started = await payments.start(orderId, { origin });
    if (started.kind !== "started") throw new Error("not started");
    const paymentId = paymentIdOf(started.checkoutUrl);

    await provider.settle(paymentId, "paid");
    expect(await payments.sync(paymentId)).toEqual({ orderId, status: "paid" });
    expect(await payments.sync(paymentId)).toEqual({ orderId, status: "paid" });

    expect(await statusOf(database, orderId)).toBe("paid");
    const transitions = await orderLifecycleRepository(database.db).transitionsOf(orderId);
    expect(transitions).toEqual([
      { from: "awaiting_payment", to: "paid", event: "payment_paid", paymentId, at: paidAt.toISOString() },
    ]);
    const sent = await mails(database);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      kind: "order-confirmation",
      locale: "nl",
      to_address: "anna@example.nl",
    });
    expect(sent[0]?.subject).toBe(`Betaling ontvangen: je bestelling ${100_000 + orderId} bij Fotohoek`);
    expect(sent[0]?.text_body).toMatch(/We hebben je betaling van €\s54,94 ontvangen\./);
    expect(sent[0]?.text_body).toMatch(/1 × Fotoboek \(Staand, 21x30 cm\): €\s49,99/);
    // Paid on Wednesday morning, 3 to 5 working days: sent Friday 12 to Tuesday 16 June.
    expect(sent[0]?.text_body).toMatch(/versturen op vrijdag 12\s*–\s*dinsdag 16 juni 2026\./);
    expect(mailed.count).toBe(1);
    expect(await payments.start(orderId, { origin })).toEqual({ kind: "not-payable", status: "paid" });
  });

  it("failed: the order still waits, one mail with a link to pay again, and a new start pays the same amount", async () => {
    const orderId = await placeOrder(database);
    const first = await payments.start(orderId, { origin });
    if (first.kind !== "started") throw new Error("not started");
    const failedId = paymentIdOf(first.checkoutUrl);

    await provider.settle(failedId, "failed");
    expect(await payments.sync(failedId)).toEqual({ orderId, status: "awaiting_payment" });
    expect(await payments.sync(failedId)).toEqual({ orderId, status: "awaiting_payment" });

    const sent = await mails(database);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.kind).toBe("payment-failed");
    expect(sent[0]?.text_body).toContain(
      `${origin}/bestelling/${100_000 + orderId}?code=${orderLinkCode(linkSecret, orderId)}`,
    );
    expect(await orderLifecycleRepository(database.db).transitionsOf(orderId)).toEqual([]);

    const second = await payments.start(orderId, { origin });
    if (second.kind !== "started") throw new Error("not started");
    const retryId = paymentIdOf(second.checkoutUrl);
    expect(retryId).not.toBe(failedId);
    expect((await provider.details(retryId))?.amountCents).toBe(5494);
    const attempts = await database.db
      .selectFrom("order_payments")
      .select(["attempt", "status"])
      .orderBy("attempt")
      .execute();
    expect(attempts.map((a) => [Number(a.attempt), a.status])).toEqual([
      [1, "failed"],
      [2, "open"],
    ]);

    await provider.settle(retryId, "paid");
    expect(await payments.sync(retryId)).toEqual({ orderId, status: "paid" });
    expect((await mails(database)).map((m) => m.kind)).toEqual(["payment-failed", "order-confirmation"]);
  });

  it("out of order: a failed older payment after the paid one changes nothing and mails nothing", async () => {
    const orderId = await placeOrder(database);
    const first = await payments.start(orderId, { origin });
    if (first.kind !== "started") throw new Error("not started");
    const cancelledId = paymentIdOf(first.checkoutUrl);
    await provider.settle(cancelledId, "canceled");
    // The shopper retries before the word about the first one arrived.
    await database.db
      .updateTable("order_payments")
      .set({ status: "canceled" })
      .where("payment_id", "=", cancelledId)
      .execute();
    const second = await payments.start(orderId, { origin });
    if (second.kind !== "started") throw new Error("not started");
    const paidId = paymentIdOf(second.checkoutUrl);
    await provider.settle(paidId, "paid");

    await payments.sync(paidId);
    expect(await payments.sync(cancelledId)).toEqual({ orderId, status: "paid" });
    await payments.sync(paidId);

    expect((await mails(database)).map((m) => m.kind)).toEqual(["order-confirmation"]);
    expect(await orderLifecycleRepository(database.db).transitionsOf(orderId)).toHaveLength(1);
  });

  it("a payment paid for an order that expired meanwhile leaves it expired, mails nothing, and logs an error", async () => {
    const orderId = await placeOrder(database);
    const started = await payments.start(orderId, { origin });
    if (started.kind !== "started") throw new Error("not started");
    const paymentId = paymentIdOf(started.checkoutUrl);
    await orderLifecycleRepository(database.db).applyOrderEvent(orderId, { type: "order_expired" }, paidAt);
    await provider.settle(paymentId, "paid");

    expect(await payments.sync(paymentId)).toEqual({ orderId, status: "expired" });

    expect(await mails(database)).toEqual([]);
    expect(log.filter((l) => l.level === "error")).toHaveLength(1);
    expect(await payments.start(orderId, { origin })).toEqual({ kind: "not-payable", status: "expired" });
  });

  it("no confirmation mail for an order that was never paid, however often its open payment is asked", async () => {
    const orderId = await placeOrder(database);
    const started = await payments.start(orderId, { origin });
    if (started.kind !== "started") throw new Error("not started");
    const paymentId = paymentIdOf(started.checkoutUrl);

    await payments.sync(paymentId);
    await payments.latest(orderId);

    expect(await mails(database)).toEqual([]);
    expect(await statusOf(database, orderId)).toBe("awaiting_payment");
  });

  it("unknown and malformed ids are undefined and change nothing", async () => {
    const orderId = await placeOrder(database);
    const stranger = await provider.createPayment({
      amountCents: 100,
      description: "not the shop's",
      locale: "nl",
      redirectUrl: "https://elsewhere.example/",
      webhookUrl: "https://elsewhere.example/hook",
      idempotencyKey: "someone-else",
    });
    await provider.settle(stranger.id, "paid");

    expect(await payments.sync(stranger.id)).toBeUndefined();
    expect(await payments.sync("tp_doesnotexist")).toBeUndefined();
    expect(await payments.sync("'; drop table orders; --")).toBeUndefined();
    expect(await statusOf(database, orderId)).toBe("awaiting_payment");
    expect(await mails(database)).toEqual([]);
  });

  it("an unknown order, and a provider that is down: nothing is stored", async () => {
    const orderId = await placeOrder(database);
    expect(await payments.start(orderId + 1000, { origin })).toEqual({ kind: "unknown-order" });

    const down: PaymentProvider = {
      ...provider,
      name: "test",
      isPaymentId: provider.isPaymentId,
      getPayment: provider.getPayment,
      listMethods: provider.listMethods,
      createPayment: async () => {
        const { PaymentProviderUnavailable } = await import("../../../server/payments/provider.ts");
        throw new PaymentProviderUnavailable("no answer");
      },
    };
    const offline = paymentsOn(database, down, log, mailed);
    expect(await offline.start(orderId, { origin })).toEqual({ kind: "unavailable" });
    expect(await database.db.selectFrom("order_payments").selectAll().execute()).toEqual([]);
    expect(await statusOf(database, orderId)).toBe("awaiting_payment");
  });

  it("offers the provider's methods for paying again, in the order's language", async () => {
    expect(await payments.methods(5494, "de")).toContainEqual({
      id: "creditcard",
      description: "Kreditkarte (Test)",
    });
  });
});

describe.each(testDatabases())("an order paid through Mollie on $name", (target) => {
  const open = databasePerTest(target);
  let fake: FakeMollie;
  let untrust: () => void;

  beforeEach(async () => {
    untrust = trustFakeMollie();
    fake = await startFakeMollie();
  });
  afterEach(async () => {
    await fake.close();
    untrust();
  });

  it("starts at Mollie with the order's key, and its paid status marks the order paid once", async () => {
    const database = await open();
    const provider = mollieProvider({ apiKey: fake.apiKey, apiEndpoint: fake.apiEndpoint });
    const mailed = { count: 0 };
    const payments = paymentsOn(database, provider, [], mailed);
    const orderId = await placeOrder(database);

    const started = await payments.start(orderId, { origin: "https://shop.example.nl" });
    expect(started.kind).toBe("started");
    const create = fake.requests.find((r) => r.method === "POST");
    expect(create?.headers["idempotency-key"]).toBe(`order-${orderId}-1`);
    expect(create?.body).toMatchObject({
      amount: { currency: "EUR", value: "54.94" },
      locale: "nl_NL",
      redirectUrl: `https://shop.example.nl/bestelling/${100_000 + orderId}?code=${orderLinkCode(linkSecret, orderId)}`,
      webhookUrl: "https://shop.example.nl/api/betalingen/webhook",
    });
    const latest = await payments.latest(orderId);
    if (!latest) throw new Error("no payment");

    fake.setStatus(latest.paymentId, "paid");
    expect(await payments.sync(latest.paymentId)).toEqual({ orderId, status: "paid" });
    expect(await payments.sync(latest.paymentId)).toEqual({ orderId, status: "paid" });

    expect((await mails(database)).map((m) => m.kind)).toEqual(["order-confirmation"]);
    expect(mailed.count).toBe(1);
  });
});
