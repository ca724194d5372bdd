import type { FastifyBaseLogger } from "fastify";
import { type Kysely, PostgresAdapter } from "kysely";
import type { CutOff } from "../domain/delivery-times.ts";
import {
  awaitsPayment,
  isOrderStatus,
  type OrderStatus,
  type PaymentEvent,
} from "../domain/order-lifecycle.ts";
import { orderNumber } from "../domain/order-number.ts";
import { dispatchAfterPayment } from "../domain/order-production.ts";
import type { I18n } from "../i18n/index.ts";
import type { Locale } from "../i18n/locales.ts";
import type { RouteTable } from "../i18n/routes.ts";
import { orderConfirmationMail } from "../mail/order-confirmation.ts";
import { orderExpiredMail, paymentFailedMail } from "../mail/order-mails.ts";
import { enqueueMail } from "../mail/outbox.ts";
import type { AfterChange, OrderLifecycleRepository } from "../store/order-lifecycle-repository.ts";
import { type Order, type OrderRepository, orderRepository } from "../store/order-repository.ts";
import type { Schema } from "../store/schema.ts";
import {
  isFinalStatus,
  isPaymentStatus,
  type PaymentProvider,
  PaymentProviderUnavailable,
  type PaymentStatus,
  type ProviderPayment,
} from "./provider.ts";

export interface OrderPayments {
  /**
   * Starts a payment for an order awaiting payment, for its total, in its locale, with
   * the order page as redirect URL and the shop's webhook URL (origin + the webhook path).
   * At most one open payment per order: an open one is returned instead of a new one.
   * The provider's idempotency key is derived from the order and its attempt number, so
   * a double click or replay starts nothing twice.
   */
  start(
    orderId: number,
    options: { origin: string; method?: string },
  ): Promise<
    | { kind: "started"; checkoutUrl: string }
    | { kind: "not-payable"; status: OrderStatus }
    | { kind: "unavailable" }
    | { kind: "unknown-order" }
  >;
  /**
   * Asks the provider for this payment's status and applies it to its order through the
   * lifecycle, idempotently; the mails go out in the same transaction, once per fact:
   * paid → the order confirmation, failed → a mail with a link to pay again (once per
   * payment). Unknown or malformed ids: undefined.
   */
  sync(paymentId: string): Promise<{ orderId: number; status: OrderStatus } | undefined>;
  /** The order's latest payment, for its page (and syncs it when it is still open). */
  latest(orderId: number): Promise<{ paymentId: string; status: PaymentStatus } | undefined>;
  /** Methods to offer for paying again: the provider's, for the amount and locale. */
  methods(amountCents: number, locale: Locale): Promise<Array<{ id: string; description: string }>>;
}

export interface OrderPaymentsDeps {
  db: Kysely<Schema>;
  provider: PaymentProvider;
  orders: OrderRepository;
  lifecycle: OrderLifecycleRepository;
  i18n: I18n;
  routes: RouteTable;
  log: Pick<FastifyBaseLogger, "info" | "warn" | "error">;
  now: () => Date;
  /** Told after mail was queued, so it goes out now rather than at the next poll. */
  mailQueued?: () => void;
  /** The day's cut-off for production (ORDER_CUTOFF), for the dispatch date in the confirmation. */
  cutOff?: CutOff;
}

/** The provider's statuses that end a payment without money, as the lifecycle's events. */
const failureEvents: Partial<Record<PaymentStatus, PaymentEvent["type"]>> = {
  failed: "payment_failed",
  canceled: "payment_cancelled",
  expired: "payment_expired",
};

/** Method ids as providers write them (ideal, creditcard, ...); anything else is never sent. */
const methodIdPattern = /^[a-z0-9_]{1,40}$/;

const defaultCutOff: CutOff = { hour: 15, minute: 0 };

function storedStatus(value: string): PaymentStatus {
  // A status the shop did not write is treated as undecided: it is asked again, never acted on.
  return isPaymentStatus(value) ? value : "open";
}

/**
 * The payments of the shop's orders: starts them at the provider, keeps which payment
 * belongs to which order (order_payments), and turns what the provider says into the
 * order's life (order-lifecycle-repository.ts) and its mails. The provider's word, fetched
 * by the shop itself, is what counts: never a return redirect or a webhook's body.
 */
export function orderPayments(deps: OrderPaymentsDeps): OrderPayments {
  const { db, provider, orders, lifecycle, i18n, routes, log, now } = deps;
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const cutOff = deps.cutOff ?? defaultCutOff;
  const mailQueued = deps.mailQueued ?? (() => {});

  const paymentRow = (paymentId: string) =>
    db.selectFrom("order_payments").selectAll().where("payment_id", "=", paymentId).executeTakeFirst();

  const latestRow = (orderId: number) =>
    db
      .selectFrom("order_payments")
      .selectAll()
      .where("order_id", "=", orderId)
      .orderBy("attempt", "desc")
      .limit(1)
      .executeTakeFirst();

  const orderStatusOf = (order: Order): OrderStatus => {
    if (!isOrderStatus(order.status))
      throw new Error(`order ${order.id} has an unknown status "${order.status}"`);
    return order.status;
  };

  /** Queues the order confirmation in the transaction that marks the order paid. */
  const confirmOnPaid =
    (order: Order, amountCents: number): AfterChange =>
    async (trx, _from, to, change) => {
      if (to !== "paid") return;
      const dispatch = dispatchAfterPayment(change.at, order.production, order.address.country, cutOff);
      await enqueueMail(
        trx,
        orderConfirmationMail(i18n.t[order.locale], order, order.id, { amountCents, dispatch }),
        change.at,
      );
    };

  /**
   * The "payment failed" mail, once per payment: the payment's row is marked in the same
   * transaction that queues it, so a replayed webhook finds it marked. No mail when the order
   * no longer waits for payment, or when the shopper has already started a newer payment.
   */
  async function mailFailure(order: Order, paymentId: string, attempt: number, orderUrl: string) {
    const at = now();
    const queued = await db.transaction().execute(async (trx) => {
      const read = trx.selectFrom("orders").select("status").where("id", "=", order.id);
      const current = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
      if (!current || !awaitsPayment(current.status as OrderStatus)) return false;
      const newer = await trx
        .selectFrom("order_payments")
        .select("payment_id")
        .where("order_id", "=", order.id)
        .where("attempt", ">", attempt)
        .executeTakeFirst();
      if (newer) return false;
      const marked = await trx
        .updateTable("order_payments")
        .set({ failure_mailed_at: at.toISOString() })
        .where("payment_id", "=", paymentId)
        .where("failure_mailed_at", "is", null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return false;
      await enqueueMail(trx, paymentFailedMail(i18n.t[order.locale], order, order.id, orderUrl), at);
      return true;
    });
    if (queued) mailQueued();
  }

  /** The order page, absolute when the payment carries the address it was started from. */
  const orderUrlOf = (order: Order, payment: ProviderPayment) => {
    const stored = payment.metadata.orderUrl;
    const path = routes.pathFor("orderConfirmation", order.locale, { number: orderNumber(order.id) });
    return stored?.endsWith(path) ? stored : path;
  };

  async function sync(paymentId: string) {
    if (!provider.isPaymentId(paymentId)) return undefined;
    const row = await paymentRow(paymentId);
    if (!row) return undefined;
    const orderId = Number(row.order_id);
    const payment = await provider.getPayment(paymentId);
    const order = await orders.get(orderId);
    if (!payment || !order) return undefined;

    const remember = async () => {
      if (payment.status === row.status) return;
      await db
        .updateTable("order_payments")
        .set({ status: payment.status, updated_at: now().toISOString() })
        .where("payment_id", "=", paymentId)
        .execute();
    };
    // "paid" is written only once the order took it: while its confirmation cannot be queued
    // the row stays undecided, so the order page and "pay again" ask the provider again
    // instead of taking it as settled (and starting a second payment).
    if (payment.status !== "paid") await remember();

    if (payment.status === "paid") {
      if (payment.amountCents !== Number(row.amount_cents)) {
        await remember();
        log.error(
          { paymentId, orderId, paid: payment.amountCents, asked: Number(row.amount_cents) },
          "a payment was paid for another amount than the shop asked: the order stays as it is; check it by hand",
        );
        return { orderId, status: orderStatusOf(order) };
      }
      const result = await lifecycle.applyOrderEvent(orderId, { type: "payment_paid", paymentId }, now(), {
        afterChange: confirmOnPaid(order, payment.amountCents),
      });
      await remember();
      switch (result.kind) {
        case "changed":
          mailQueued();
          return { orderId, status: result.to };
        case "unchanged":
          return { orderId, status: result.status };
        case "refused":
          // Money was taken for an order that cannot take it: a person refunds or reinstates.
          log.error({ paymentId, orderId, status: result.status }, `payment refused: ${result.reason}`);
          return { orderId, status: result.status };
        case "unknown-order":
          return undefined;
      }
    }

    const failure = failureEvents[payment.status];
    if (failure) {
      const result = await lifecycle.applyOrderEvent(orderId, { type: failure, paymentId }, now());
      if (result.kind === "unknown-order") return undefined;
      const status = result.kind === "changed" ? result.to : result.status;
      if (awaitsPayment(status)) {
        await mailFailure(order, paymentId, Number(row.attempt), orderUrlOf(order, payment));
      }
      return { orderId, status };
    }

    // Still open, pending or authorized: nothing is decided yet.
    return { orderId, status: orderStatusOf(order) };
  }

  /** The payment input for an order; the same order and attempt always give the same key. */
  function paymentInput(order: Order, attempt: number, origin: string, method: string | undefined) {
    const number = orderNumber(order.id);
    const t = i18n.t[order.locale];
    const redirectUrl = `${origin}${routes.pathFor("orderConfirmation", order.locale, { number })}`;
    return {
      amountCents: order.totalCents,
      description: t("orderPayment.description", { number, shop: t("site.name") }),
      locale: order.locale,
      redirectUrl,
      webhookUrl: `${origin}${routes.pathFor("paymentWebhook", order.locale)}`,
      idempotencyKey: `order-${order.id}-${attempt}`,
      metadata: { order: number, orderUrl: redirectUrl },
      ...(method ? { method } : {}),
    };
  }

  /** The method as asked, when the provider offers it for this order; else the provider's page asks. */
  async function offeredMethod(order: Order, method: string | undefined) {
    if (!method || !methodIdPattern.test(method)) return undefined;
    const offered = await provider.listMethods({ amountCents: order.totalCents, locale: order.locale });
    return offered.some((m) => m.id === method) ? method : undefined;
  }

  return {
    sync,

    async start(orderId, options) {
      const order = await orders.get(orderId);
      if (!order) return { kind: "unknown-order" };
      if (!awaitsPayment(orderStatusOf(order))) return { kind: "not-payable", status: orderStatusOf(order) };

      try {
        const latest = await latestRow(orderId);
        if (latest && !isFinalStatus(storedStatus(latest.status))) {
          // The provider may have decided it meanwhile (the webhook is late or lost): ask first.
          const synced = await sync(latest.payment_id);
          if (synced && !awaitsPayment(synced.status)) return { kind: "not-payable", status: synced.status };
          const again = await paymentRow(latest.payment_id);
          if (again && !isFinalStatus(storedStatus(again.status))) {
            return { kind: "started", checkoutUrl: again.checkout_url };
          }
        }

        const attempt = (latest ? Number(latest.attempt) : 0) + 1;
        const method = await offeredMethod(order, options.method);
        const input = paymentInput(order, attempt, options.origin, method);
        const created = await provider.createPayment(input);
        const at = now().toISOString();
        // A double click gets the same payment back from the provider (same key): its row is
        // already there, and the second insert does nothing.
        await db
          .insertInto("order_payments")
          .values({
            payment_id: created.id,
            order_id: orderId,
            provider: provider.name,
            attempt,
            status: created.status,
            amount_cents: input.amountCents,
            checkout_url: created.checkoutUrl,
            failure_mailed_at: null,
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.doNothing())
          .execute();
        return { kind: "started", checkoutUrl: created.checkoutUrl };
      } catch (err) {
        if (err instanceof PaymentProviderUnavailable) {
          log.warn({ err, orderId }, "payment provider unavailable: the order stays awaiting payment");
          return { kind: "unavailable" };
        }
        // The provider refused the request itself (a bad key, an amount it does not take):
        // the shopper can only try later, and a person has to look.
        log.error({ err, orderId }, "payment provider refused to start a payment");
        return { kind: "unavailable" };
      }
    },

    async latest(orderId) {
      const row = await latestRow(orderId);
      if (!row) return undefined;
      const status = storedStatus(row.status);
      if (isFinalStatus(status)) return { paymentId: row.payment_id, status };
      try {
        await sync(row.payment_id);
      } catch (err) {
        // The page shows what was known; the webhook brings the rest.
        log.warn({ err, orderId, paymentId: row.payment_id }, "payment status could not be fetched");
        return { paymentId: row.payment_id, status };
      }
      const again = await paymentRow(row.payment_id);
      return { paymentId: row.payment_id, status: storedStatus(again?.status ?? row.status) };
    },

    async methods(amountCents, locale) {
      try {
        const offered = await provider.listMethods({ amountCents, locale });
        return offered.map(({ id, description }) => ({ id, description }));
      } catch (err) {
        // Without the list the provider's own page lets the shopper choose.
        log.warn({ err }, "payment methods could not be fetched");
        return [];
      }
    },
  };
}

/**
 * For the clean-up job: the "order expired" mail, queued in the transaction that expires
 * the order, so each expired order gets exactly one.
 */
export function queueOrderExpiredMail(i18n: I18n): AfterChange {
  return async (trx, _from, to, change) => {
    if (to !== "expired") return;
    const order = await orderRepository(trx).get(change.orderId);
    if (!order) return;
    await enqueueMail(trx, orderExpiredMail(i18n.t[order.locale], order, order.id), change.at);
  };
}
