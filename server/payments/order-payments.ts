import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { CutOff } from "../domain/delivery-times.ts";
import type { LegalPages } from "../domain/legal-pages.ts";
import { awaitsPayment, isOrderStatus, type OrderStatus } from "../domain/order-lifecycle.ts";
import { orderPagePath } from "../domain/order-link.ts";
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
import { appliedOf, type PayableKind, type PayableSubject, payablePayments } from "./payable.ts";
import type { PaymentProvider, PaymentStatus } from "./provider.ts";

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
  /** The terms and withdrawal information, which the order confirmation carries. */
  legal: LegalPages;
  /** The shop's secret (COOKIE_SECRET), which the order page's link is made with (domain/order-link.ts). */
  orderLinkSecret: string;
  /** The day's cut-off for production (ORDER_CUTOFF), for the dispatch date in the confirmation. */
  cutOff?: CutOff;
}

const defaultCutOff: CutOff = { hour: 15, minute: 0 };

/** An order as its payments see it. */
interface PayableOrder extends PayableSubject {
  order: Order;
}

/**
 * The payments of the shop's orders (the shared part: payable.ts): what an order asks, the
 * page its shopper returns to, and how the provider's word moves the order's life
 * (order-lifecycle-repository.ts) and its mails.
 */
export function orderPayments(deps: OrderPaymentsDeps): OrderPayments {
  const { provider, orders, lifecycle, i18n, routes, now } = deps;
  const cutOff = deps.cutOff ?? defaultCutOff;

  const statusOf = (order: Order): OrderStatus => {
    if (!isOrderStatus(order.status))
      throw new Error(`order ${order.id} has an unknown status "${order.status}"`);
    return order.status;
  };

  /** Queues the order confirmation in the transaction that marks the order paid. */
  const confirmOnPaid =
    (order: Order, amountCents: number, pageUrl: string): AfterChange =>
    async (trx, _from, to, change) => {
      if (to !== "paid") return;
      const dispatch = dispatchAfterPayment(change.at, order.production, order.address.country, cutOff);
      await enqueueMail(
        trx,
        orderConfirmationMail(
          i18n.t[order.locale],
          order,
          order.id,
          { amountCents, dispatch, pageUrl },
          deps.legal,
        ),
        change.at,
      );
    };

  const kind: PayableKind<PayableOrder> = {
    name: "order",
    table: "order_payments",
    subjectColumn: "order_id",
    subjectTable: "orders",
    async load(id) {
      const order = await orders.get(Number(id));
      if (!order) return undefined;
      return {
        id: String(order.id),
        locale: order.locale,
        amountCents: order.totalCents,
        status: statusOf(order),
        order,
      };
    },
    awaitsPayment: (status) => isOrderStatus(status) && awaitsPayment(status),
    describe({ order }) {
      const number = orderNumber(order.id);
      const t = i18n.t[order.locale];
      return {
        description: t("orderPayment.description", { number, shop: t("site.name") }),
        pagePath: orderPagePath(routes, order.locale, order.id, deps.orderLinkSecret),
        metadata: { order: number },
      };
    },
    applyPaid: async ({ order }, paymentId, amountCents, at, pageUrl) =>
      appliedOf(
        await lifecycle.applyOrderEvent(order.id, { type: "payment_paid", paymentId }, at, {
          afterChange: confirmOnPaid(order, amountCents, pageUrl),
        }),
      ),
    applyFailure: async ({ order }, type, paymentId, at) =>
      appliedOf(await lifecycle.applyOrderEvent(order.id, { type, paymentId }, at)),
    failureMail: ({ order }, pageUrl) => paymentFailedMail(i18n.t[order.locale], order, order.id, pageUrl),
  };

  const payments = payablePayments(kind, {
    db: deps.db,
    provider,
    log: deps.log,
    now,
    mailQueued: deps.mailQueued ?? (() => {}),
    webhookPath: routes.pathFor("paymentWebhook", "nl"),
  });

  return {
    async start(orderId, options) {
      const result = await payments.start(String(orderId), options);
      if (result.kind === "unknown") return { kind: "unknown-order" };
      if (result.kind === "not-payable") return { kind: "not-payable", status: result.status as OrderStatus };
      return result;
    },
    async sync(paymentId) {
      const synced = await payments.sync(paymentId);
      return synced && { orderId: Number(synced.subjectId), status: synced.status as OrderStatus };
    },
    latest: (orderId) => payments.latest(String(orderId)),
    methods: (amountCents, locale) => paymentMethods(provider, deps.log, amountCents, locale),
  };
}

/** Methods to offer for paying again: the provider's for the amount and locale; none when it cannot say. */
export async function paymentMethods(
  provider: PaymentProvider,
  log: Pick<FastifyBaseLogger, "warn">,
  amountCents: number,
  locale: Locale,
): Promise<Array<{ id: string; description: string }>> {
  try {
    const offered = await provider.listMethods({ amountCents, locale });
    return offered.map(({ id, description }) => ({ id, description }));
  } catch (err) {
    // Without the list the provider's own page lets the shopper choose.
    log.warn({ err }, "payment methods could not be fetched");
    return [];
  }
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
