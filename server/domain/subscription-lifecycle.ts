import { addDays, type IsoDate } from "./working-days.ts";

/**
 * A subscription's life as a state machine, the way domain/order-lifecycle.ts is an order's.
 * Pure: the store applies it under a lock (server/store/subscription-repository.ts) and keeps
 * every change it allows.
 *
 *   awaiting_payment ──payment_paid──▶ active ──cancelled──▶ cancelled ──restarted──▶ awaiting_payment
 *          │          └──cancelled──▶ cancelled
 *          └──unpaid_expired──▶ expired ──restarted──▶ awaiting_payment
 *
 * A subscription exists once its address was confirmed (the link in the sign-up mail); it
 * waits for the payment of its first period and becomes active when that is paid. An
 * unpaid one expires after a day; confirming a new sign-up for the same address starts it
 * again. Monthly payments after the first period are not part of the shop yet.
 *
 * Texts for a status live in the locale files, under subscriptionPayment.status.<status>.
 */

export const subscriptionStatuses = ["awaiting_payment", "active", "expired", "cancelled"] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** Unpaid this long after its address was confirmed, a subscription expires (the clean-up job). */
export const unpaidSubscriptionExpiryHours = 24;

/** The length of the first period, the one paid when signing up. */
export const firstPeriodMonths = 1;

export type SubscriptionEvent =
  | { type: "payment_paid"; paymentId: string }
  | { type: "payment_failed"; paymentId: string }
  | { type: "payment_cancelled"; paymentId: string }
  | { type: "payment_expired"; paymentId: string }
  /** Unpaid for longer than unpaidSubscriptionExpiryHours; sent by the clean-up job. */
  | { type: "unpaid_expired" }
  /** Taken out again (a new sign-up, or a signed-in subscriber): an ended one waits for payment again. */
  | { type: "restarted" }
  /** Its subscriber cancels it (or deletes the account). */
  | { type: "cancelled" };

export type SubscriptionEventType = SubscriptionEvent["type"];

export const subscriptionEventTypes = [
  "payment_paid",
  "payment_failed",
  "payment_cancelled",
  "payment_expired",
  "unpaid_expired",
  "restarted",
  "cancelled",
] as const satisfies readonly SubscriptionEventType[];

export type SubscriptionTransition =
  | { ok: true; next: SubscriptionStatus; changed: boolean }
  | { ok: false; reason: string };

const moveTo = (next: SubscriptionStatus): SubscriptionTransition => ({ ok: true, next, changed: true });
const stay = (status: SubscriptionStatus): SubscriptionTransition => ({
  ok: true,
  next: status,
  changed: false,
});
const refuse = (reason: string): SubscriptionTransition => ({ ok: false, reason });

export function isSubscriptionStatus(value: string): value is SubscriptionStatus {
  return (subscriptionStatuses as readonly string[]).includes(value);
}

/** Its subscriber can (still) pay the first period. */
export function subscriptionAwaitsPayment(status: SubscriptionStatus): boolean {
  return status === "awaiting_payment";
}

/**
 * What `event` does to a subscription in `status`. As with orders, an event that already
 * happened changes nothing (a replayed webhook), a payment that did not go through never
 * changes the subscription, and a refused `payment_paid` means money was taken that the
 * subscription cannot take (it expired meanwhile): the caller logs an error for a person.
 */
export function applySubscriptionEvent(
  status: SubscriptionStatus,
  event: SubscriptionEvent,
): SubscriptionTransition {
  switch (event.type) {
    case "payment_paid":
      if (status === "awaiting_payment") return moveTo("active");
      if (status === "active") return stay(status);
      return refuse(
        `payment ${event.paymentId} was paid for a subscription that is ${status}: refund it or reinstate the subscription`,
      );
    case "payment_failed":
    case "payment_cancelled":
    case "payment_expired":
      return stay(status);
    case "unpaid_expired":
      if (status === "awaiting_payment") return moveTo("expired");
      if (status === "expired") return stay(status);
      return refuse(`a subscription that is ${status} does not expire unpaid`);
    case "restarted":
      if (status === "expired" || status === "cancelled") return moveTo("awaiting_payment");
      if (status === "awaiting_payment") return stay(status);
      return refuse(`a subscription that is ${status} cannot be started again`);
    case "cancelled":
      if (status === "awaiting_payment" || status === "active") return moveTo("cancelled");
      if (status === "cancelled") return stay(status);
      return refuse(`a subscription that is ${status} cannot be cancelled`);
  }
}

/**
 * The last day of a period that starts on `start` (a day on the shop's calendar): the day
 * before the same date `months` later, or that month's last day when it has no such date
 * (31 January + 1 month ends on 28 or 29 February).
 */
export function periodEnd(start: IsoDate, months = firstPeriodMonths): IsoDate {
  const [year, month, day] = start.split("-").map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastOfTarget = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  if (day > lastOfTarget) {
    return `${target.getUTCFullYear()}-${String(target.getUTCMonth() + 1).padStart(2, "0")}-${String(lastOfTarget).padStart(2, "0")}`;
  }
  const sameDay = `${target.getUTCFullYear()}-${String(target.getUTCMonth() + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return addDays(sameDay, -1);
}
