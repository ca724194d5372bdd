import { addDays, type IsoDate } from "./working-days.ts";

/**
 * A subscription's life as a state machine, the way domain/order-lifecycle.ts is an order's.
 * Pure: the store applies it under a lock (server/store/subscription-repository.ts) and keeps
 * every change it allows, with its time.
 *
 *   awaiting_payment ─payment_paid─▶ active ─charge_paid─▶ active (renewed, each period)
 *     │                               │ ▲
 *     └─unpaid_expired─▶ expired      │ └──────charge_paid──────┐
 *                                     ├─charge_failed─▶ past_due ─charge_failed (last)─▶ suspended
 *                                     ├─notice_given─▶ cancelling ─period_ended─▶ cancelled
 *                                     └─withdrawn (within 14 days)─▶ withdrawn
 *
 * A subscription exists once its address was confirmed; it waits for the payment of its
 * first period, which also gives the shop a mandate to charge the next periods on. The
 * renewal job charges each next period on its first day; a failed charge makes it past_due
 * and is tried again after 3 and 7 days; when the last try fails it is suspended (storage
 * read-only, no free prints) until a charge is paid by hand. Notice runs to the end of the
 * paid period (cancelling, then cancelled); a withdrawal within 14 days of the first period's
 * start ends it at once, refunding the unused days. Expired, cancelled and withdrawn ones can
 * be taken out again (restarted).
 *
 * Texts for a status live in the locale files, under subscriptionPayment.status.<status>.
 */

export const subscriptionStatuses = [
  "awaiting_payment",
  "active",
  "past_due",
  "suspended",
  "cancelling",
  "cancelled",
  "expired",
  "withdrawn",
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** Unpaid this long after its address was confirmed, a subscription expires (the clean-up job). */
export const unpaidSubscriptionExpiryHours = 24;

/** The length of the first period, the one paid when signing up, and of every next one. */
export const firstPeriodMonths = 1;

/** Days after a period's first failed charge that it is charged again: attempts 2 and 3. */
export const chargeRetryDays = [3, 7] as const;

/** The attempt whose failure suspends the subscription. */
export const lastChargeAttempt = chargeRetryDays.length + 1;

/** Days after the first period's first day that a subscriber may still withdraw (directive 2011/83/EU, art. 9). */
export const withdrawalDays = 14;

export type SubscriptionEvent =
  /** The first period's payment (the one that makes the mandate) and its other outcomes. */
  | { type: "payment_paid"; paymentId: string }
  | { type: "payment_failed"; paymentId: string }
  | { type: "payment_cancelled"; paymentId: string }
  | { type: "payment_expired"; paymentId: string }
  /** Unpaid for longer than unpaidSubscriptionExpiryHours; sent by the clean-up job. */
  | { type: "unpaid_expired" }
  /** Taken out again (a new sign-up, or a signed-in subscriber): an ended one waits for payment again. */
  | { type: "restarted" }
  /** Ended at once: extraordinary notice, or the account deleted. */
  | { type: "cancelled" }
  /** A next period's charge was paid (on the mandate, or by hand from the mail's link). */
  | { type: "charge_paid"; paymentId: string }
  /** A next period's charge failed; `attempt` 1 is the period's first, lastChargeAttempt the last. */
  | { type: "charge_failed"; paymentId: string; attempt: number }
  /** Ordinary notice: it runs to the end of the paid period. */
  | { type: "notice_given" }
  /** The paid period of a subscription under notice is over; sent by the renewal job. */
  | { type: "period_ended" }
  /** The subscriber withdraws on `on`; the first period started on `startedOn` (days on the shop's calendar). */
  | { type: "withdrawn"; on: IsoDate; startedOn: IsoDate };

export type SubscriptionEventType = SubscriptionEvent["type"];

export const subscriptionEventTypes = [
  "payment_paid",
  "payment_failed",
  "payment_cancelled",
  "payment_expired",
  "unpaid_expired",
  "restarted",
  "cancelled",
  "charge_paid",
  "charge_failed",
  "notice_given",
  "period_ended",
  "withdrawn",
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

/** Running: paid for now (or being charged again), so its photos and prints are there. */
export function subscriptionRuns(status: SubscriptionStatus): boolean {
  return status === "active" || status === "past_due" || status === "cancelling";
}

/** Its storage only shows photos: nothing new is stored, no free prints (suspended). */
export function storageReadOnly(status: SubscriptionStatus): boolean {
  return status === "suspended";
}

/** A next period's charge may be made or paid by hand. */
export function subscriptionCharged(status: SubscriptionStatus): boolean {
  return status === "active" || status === "past_due" || status === "suspended";
}

/** The last day a withdrawal is accepted for a subscription whose first period started on `startedOn`. */
export function withdrawalDeadline(startedOn: IsoDate): IsoDate {
  return addDays(startedOn, withdrawalDays);
}

/** Running or paused: not yet ended. */
const ongoing: readonly SubscriptionStatus[] = ["active", "past_due", "suspended", "cancelling"];

/**
 * What `event` does to a subscription in `status`. As with orders, an event that already
 * happened changes nothing (a replayed webhook), a payment that did not go through never
 * ends anything by itself, and a refused `payment_paid` or `charge_paid` means money was
 * taken that the subscription cannot take: the caller logs an error for a person to refund.
 * A renewal (`charge_paid` while active) is a change that keeps the status: the period moves on.
 */
export function applySubscriptionEvent(
  status: SubscriptionStatus,
  event: SubscriptionEvent,
): SubscriptionTransition {
  switch (event.type) {
    case "payment_paid":
      if (status === "awaiting_payment") return moveTo("active");
      // A replay of the first payment; the store tells a second first payment apart.
      if (ongoing.includes(status)) return stay(status);
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
      if (status === "expired" || status === "cancelled" || status === "withdrawn")
        return moveTo("awaiting_payment");
      if (status === "awaiting_payment") return stay(status);
      return refuse(`a subscription that is ${status} cannot be started again`);
    case "cancelled":
      if (status === "awaiting_payment" || ongoing.includes(status)) return moveTo("cancelled");
      if (status === "cancelled") return stay(status);
      return refuse(`a subscription that is ${status} cannot be cancelled`);
    case "charge_paid":
      if (subscriptionCharged(status)) return moveTo("active");
      return refuse(
        `charge ${event.paymentId} was paid for a subscription that is ${status}: refund it or reinstate the subscription`,
      );
    case "charge_failed":
      if (status === "active" || status === "past_due") {
        const next = event.attempt >= lastChargeAttempt ? "suspended" : "past_due";
        return next === status ? stay(status) : moveTo(next);
      }
      return stay(status);
    case "notice_given":
      // Paid up: it runs to the end of the period. Behind with paying: nothing is paid ahead, it ends now.
      if (status === "active") return moveTo("cancelling");
      if (status === "past_due" || status === "suspended" || status === "awaiting_payment")
        return moveTo("cancelled");
      if (status === "cancelling" || status === "cancelled") return stay(status);
      return refuse(`a subscription that is ${status} cannot be given notice`);
    case "period_ended":
      if (status === "cancelling") return moveTo("cancelled");
      if (status === "cancelled") return stay(status);
      return refuse(`a subscription that is ${status} does not end with its period`);
    case "withdrawn":
      if (status === "withdrawn") return stay(status);
      if (!ongoing.includes(status))
        return refuse(`a subscription that is ${status} cannot be withdrawn from`);
      if (event.on > withdrawalDeadline(event.startedOn))
        return refuse(
          `the 14 days to withdraw from a subscription that is ${status} ended on ${withdrawalDeadline(event.startedOn)}`,
        );
      return moveTo("withdrawn");
  }
}

/**
 * What period `number` costs (1 is the first): the offer's monthly price for the offer's
 * months, then the plan's.
 */
export function periodCents(
  plan: { monthlyCents: number; offer?: { monthlyCents: number; months: number } | undefined },
  number: number,
): number {
  return plan.offer && number <= plan.offer.months ? plan.offer.monthlyCents : plan.monthlyCents;
}

/** Days from `from` to `to`, both counted. */
function daysIncluding(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * What a withdrawal on `on` pays back of a period paid `paidCents` for: the days after `on`
 * to the period's end, pro rata (the day of withdrawal is used), rounded down to a cent.
 */
export function withdrawalRefundCents(
  paidCents: number,
  period: { start: IsoDate; end: IsoDate },
  on: IsoDate,
): number {
  const all = daysIncluding(period.start, period.end);
  const used = Math.min(all, Math.max(0, daysIncluding(period.start, on)));
  return Math.floor((paidCents * (all - used)) / all);
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
