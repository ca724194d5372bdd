import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../server/app.ts";
import { createI18n, loadMessages } from "../../server/i18n/index.ts";
import { type OrderPayments, orderPayments } from "../../server/payments/order-payments.ts";
import { subscriptionPayments } from "../../server/payments/subscription-payments.ts";
import { type TestPaymentProvider, testPaymentProvider } from "../../server/payments/test-provider.ts";
import { orderLifecycleRepository } from "../../server/store/order-lifecycle-repository.ts";
import { orderRepository } from "../../server/store/order-repository.ts";
import { subscriptionRepository } from "../../server/store/subscription-repository.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { testDatabases } from "../support/databases.ts";
import { testLegalPages } from "../support/legal.ts";
import { orderRow } from "../support/orders.ts";
import { confirmedSubscription } from "../support/subscriptions.ts";

const webhookPath = "/api/betalingen/webhook";
const i18n = createI18n(loadMessages(paths.locales), () => {});

interface LogLine {
  level: number;
  msg: string;
}

describe.each(testDatabases())("the payment webhook on $name", (target) => {
  let shop: TestShop;
  let cleanup: () => Promise<void>;
  let origin: string;
  let logs: LogLine[];
  let mailQueued: number;
  /**
   * The test provider and the order payments as the shop builds them, on the shop's database:
   * the provider's payments are rows there, so this copy starts and settles the payments the
   * shop's own provider reads, and its webhook calls go to the shop over HTTP.
   */
  let provider: TestPaymentProvider;
  let payments: OrderPayments;

  beforeEach(async () => {
    logs = [];
    mailQueued = 0;
    const opened = await target.open();
    cleanup = opened.cleanup;
    shop = await testShop({
      database: opened.database,
      logger: {
        level: "info",
        stream: { write: (line: string) => logs.push(JSON.parse(line) as LogLine) },
      },
      mailQueued: () => {
        mailQueued++;
      },
    });
    // The test provider calls the webhook over HTTP, as a provider does: the shop listens.
    await shop.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(shop.app.server.address() as AddressInfo).port}`;
    const db = shop.database.db;
    provider = testPaymentProvider({
      db,
      checkoutUrl: (id) => `${origin}/testbetaling/${id}`,
      log: { warn: () => {} },
      webhookRetryDelaysMs: [],
    });
    payments = orderPayments({
      db,
      provider,
      orders: orderRepository(db),
      lifecycle: orderLifecycleRepository(db),
      i18n,
      routes: i18n.routes,
      legal: testLegalPages(i18n),
      log: shop.app.log,
      now: () => new Date(),
      orderLinkSecret: shop.config.cookieSecret,
    });
  });
  afterEach(async () => {
    await provider.idle();
    await shop.app.close();
    await cleanup();
  });

  async function placeOrder() {
    const row = await shop.database.db
      .insertInto("orders")
      .values(orderRow(`key-${randomBytes(8).toString("hex")}`, "cart-anna"))
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async function startPayment(orderId: number) {
    const started = await payments.start(orderId, { origin });
    if (started.kind !== "started") throw new Error(`not started: ${started.kind}`);
    return started.checkoutUrl.split("/").pop() as string;
  }

  const post = (body: string, contentType = "application/x-www-form-urlencoded") =>
    shop.app.inject({
      method: "POST",
      url: webhookPath,
      headers: { "content-type": contentType },
      payload: body,
    });

  const mails = () => shop.database.db.selectFrom("outbox").select(["kind"]).execute();
  const statusOf = async (orderId: number) =>
    (
      await shop.database.db
        .selectFrom("orders")
        .select("status")
        .where("id", "=", orderId)
        .executeTakeFirstOrThrow()
    ).status;
  const warnings = () => logs.filter((line) => line.level === 40);

  it("a paid test payment: the provider's call marks the order paid and queues one confirmation", async () => {
    const orderId = await placeOrder();
    const paymentId = await startPayment(orderId);

    // settle posts id=<payment> to the webhook and resolves once that call is answered.
    await provider.settle(paymentId, "paid");

    expect(await statusOf(orderId)).toBe("paid");
    expect((await mails()).map((m) => m.kind)).toEqual(["order-confirmation"]);
    expect(await orderLifecycleRepository(shop.database.db).transitionsOf(orderId)).toHaveLength(1);
    expect(mailQueued).toBe(1);
    expect(warnings()).toEqual([]);
  });

  it("50 identical calls at once: one transition and one mail", async () => {
    const orderId = await placeOrder();
    const paymentId = await startPayment(orderId);
    // Decided at the provider without its own call, so all 50 below are the first to arrive.
    await shop.database.db
      .updateTable("test_payments")
      .set({ status: "paid" })
      .where("id", "=", paymentId)
      .execute();

    const answers = await Promise.all(
      Array.from({ length: 50 }, () => post(new URLSearchParams({ id: paymentId }).toString())),
    );

    expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 50 }, () => 200));
    expect(answers.every((a) => a.body === "")).toBe(true);
    expect(await orderLifecycleRepository(shop.database.db).transitionsOf(orderId)).toHaveLength(1);
    expect((await mails()).map((m) => m.kind)).toEqual(["order-confirmation"]);
    expect(await statusOf(orderId)).toBe("paid");
  });

  it("a replay and a late failure of the same order change nothing twice", async () => {
    const orderId = await placeOrder();
    const first = await startPayment(orderId);
    await provider.settle(first, "canceled");
    const second = await startPayment(orderId);
    await provider.settle(second, "paid");

    await post(`id=${second}`);
    await post(JSON.stringify({ id: first }), "application/json");
    await post(`id=${first}`);

    expect(await statusOf(orderId)).toBe("paid");
    expect((await mails()).map((m) => m.kind)).toEqual(["payment-failed", "order-confirmation"]);
    expect(await orderLifecycleRepository(shop.database.db).transitionsOf(orderId)).toHaveLength(1);
  });

  it.each([
    ["a malformed id", "id=%27%3B+drop+table+orders", "application/x-www-form-urlencoded"],
    ["an unknown id", "id=tp_AAAAAAAAAAAAAAAAAAAAAA", "application/x-www-form-urlencoded"],
    ["no id at all", "", "application/x-www-form-urlencoded"],
    ["broken JSON", "{id:", "application/json"],
    ["a body of another type", "<id>tp_x</id>", "application/xml"],
  ])("%s: 200, nothing changed, exactly one warning", async (_name, body, contentType) => {
    const orderId = await placeOrder();
    await startPayment(orderId);
    logs.length = 0;

    const answer = await post(body, contentType);

    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe("");
    expect(warnings()).toHaveLength(1);
    expect(await statusOf(orderId)).toBe("awaiting_payment");
    expect(await mails()).toEqual([]);
  });

  it("takes no CSRF token and sets no cookie", async () => {
    const answer = await post("id=tp_AAAAAAAAAAAAAAAAAAAAAA");

    expect(answer.statusCode).toBe(200);
    expect(answer.headers["set-cookie"]).toBeUndefined();
  });

  describe("for a subscription's first period", () => {
    /** A confirmed subscription waiting for payment, and its payment started by the shop's own module. */
    async function startSubscriptionPayment(email: string) {
      const waiting = await confirmedSubscription(shop.database.db, { email });
      const started = await subscriptionPayments({
        db: shop.database.db,
        provider,
        subscriptions: subscriptionRepository(shop.database.db),
        i18n,
        log: shop.app.log,
        now: () => new Date(),
      }).start(waiting.id, { origin });
      if (started.kind !== "started") throw new Error(`not started: ${started.kind}`);
      return { id: waiting.id, paymentId: started.checkoutUrl.split("/").pop() as string };
    }

    it("50 identical calls at once: one transition and one welcome mail", async () => {
      const { id, paymentId } = await startSubscriptionPayment("fifty@example.test");
      await shop.database.db
        .updateTable("test_payments")
        .set({ status: "paid" })
        .where("id", "=", paymentId)
        .execute();
      const before = (await mails()).length;

      const answers = await Promise.all(
        Array.from({ length: 50 }, () => post(new URLSearchParams({ id: paymentId }).toString())),
      );

      expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 50 }, () => 200));
      expect(await subscriptionRepository(shop.database.db).transitionsOf(id)).toHaveLength(1);
      expect((await mails()).slice(before).map((m) => m.kind)).toEqual(["subscription-welcome"]);
      expect((await subscriptionRepository(shop.database.db).get(id))?.status).toBe("active");
      expect(warnings()).toEqual([]);
    });

    it("a failed payment, replayed, mails once and leaves it waiting", async () => {
      const { id, paymentId } = await startSubscriptionPayment("failed@example.test");
      const before = (await mails()).length;
      await provider.settle(paymentId, "failed");
      await post(`id=${paymentId}`);
      await post(`id=${paymentId}`);
      expect((await mails()).slice(before).map((m) => m.kind)).toEqual(["subscription-payment-failed"]);
      expect((await subscriptionRepository(shop.database.db).get(id))?.status).toBe("awaiting_payment");
    });
  });
});
