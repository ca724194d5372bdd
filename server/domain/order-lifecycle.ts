/**
 * An order's life as a state machine: which statuses there are, which events move an order
 * from one to the next, and which are refused. Pure: the store applies it under a lock
 * (server/store/order-lifecycle-repository.ts) and keeps every change it allows.
 *
 *   awaiting_payment ──payment_paid──▶ paid ──production_started──▶ in_production ──shipped──▶ shipped
 *          │
 *          ├──order_cancelled──▶ cancelled
 *          └──order_expired────▶ expired
 *
 * Texts for a status live in the locale files, under the status itself as key.
 */

export const orderStatuses = [
  "awaiting_payment",
  "paid",
  "in_production",
  "shipped",
  "cancelled",
  "expired",
] as const;

export type OrderStatus = (typeof orderStatuses)[number];

/** Where every order starts: placed, not paid yet. */
export const awaitingPayment = "awaiting_payment" satisfies OrderStatus;

/** An order still awaiting payment this long after it was placed expires (the clean-up job). */
export const unpaidExpiryHours = 24;

/** What a payment provider said about one payment of the order. */
export type PaymentEvent =
  | { type: "payment_paid"; paymentId: string }
  | { type: "payment_failed"; paymentId: string }
  | { type: "payment_cancelled"; paymentId: string }
  | { type: "payment_expired"; paymentId: string };

export type OrderEvent =
  | PaymentEvent
  /** Unpaid for longer than unpaidExpiryHours; sent by the clean-up job. */
  | { type: "order_expired" }
  /** The shop cancels an order that was never paid. */
  | { type: "order_cancelled" }
  | { type: "production_started" }
  | { type: "shipped" };

export type OrderEventType = OrderEvent["type"];

export const orderEventTypes = [
  "payment_paid",
  "payment_failed",
  "payment_cancelled",
  "payment_expired",
  "order_expired",
  "order_cancelled",
  "production_started",
  "shipped",
] as const satisfies readonly OrderEventType[];

export type Transition = { ok: true; next: OrderStatus; changed: boolean } | { ok: false; reason: string };

const moveTo = (next: OrderStatus): Transition => ({ ok: true, next, changed: true });
const stay = (status: OrderStatus): Transition => ({ ok: true, next: status, changed: false });
const refuse = (reason: string): Transition => ({ ok: false, reason });

/** Statuses in which the money for the order has been received. */
const paidStatuses: readonly OrderStatus[] = ["paid", "in_production", "shipped"];

export function isOrderStatus(value: string): value is OrderStatus {
  return (orderStatuses as readonly string[]).includes(value);
}

/** No event moves the order on from here. */
export function isFinal(status: OrderStatus): boolean {
  return status === "shipped" || status === "cancelled" || status === "expired";
}

/** The money was received (the order may have moved on since). */
export function isPaid(status: OrderStatus): boolean {
  return paidStatuses.includes(status);
}

/** The shopper can still pay: the order page offers to pay (again). */
export function awaitsPayment(status: OrderStatus): boolean {
  return status === awaitingPayment;
}

/**
 * What `event` does to an order in `status`. An event that already happened is allowed and
 * changes nothing (`changed: false`), so a webhook replayed or arriving late never changes an
 * order twice. A payment that did not go through never changes the order: before payment the
 * shopper may try again; after payment, or once the order is cancelled or expired, it is a late
 * word about an older attempt, and no money was taken.
 *
 * A refused `payment_paid` always means money was taken for an order that cannot take it
 * (cancelled or expired meanwhile): the order stays as it is, and the caller must log an error
 * so a person refunds the payment or reinstates the order. Nothing here decides that silently.
 */
export function applyEvent(status: OrderStatus, event: OrderEvent): Transition {
  switch (event.type) {
    case "payment_paid":
      if (status === "awaiting_payment") return moveTo("paid");
      if (isPaid(status)) return stay(status);
      return refuse(
        `payment ${event.paymentId} was paid for an order that is ${status}: refund it or reinstate the order`,
      );
    case "payment_failed":
    case "payment_cancelled":
    case "payment_expired":
      return stay(status);
    case "order_expired":
      if (status === "awaiting_payment") return moveTo("expired");
      if (status === "expired") return stay(status);
      return refuse(`an order that is ${status} does not expire`);
    case "order_cancelled":
      if (status === "awaiting_payment") return moveTo("cancelled");
      if (status === "cancelled") return stay(status);
      return refuse(`an order that is ${status} cannot be cancelled`);
    case "production_started":
      if (status === "paid") return moveTo("in_production");
      if (status === "in_production" || status === "shipped") return stay(status);
      return refuse(`production cannot start on an order that is ${status}`);
    case "shipped":
      if (status === "in_production") return moveTo("shipped");
      if (status === "shipped") return stay(status);
      return refuse(`an order that is ${status} cannot be shipped`);
  }
}
