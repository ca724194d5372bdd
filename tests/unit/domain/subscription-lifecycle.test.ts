import { describe, expect, it } from "vitest";
import {
  applySubscriptionEvent,
  chargeRetryDays,
  isSubscriptionStatus,
  lastChargeAttempt,
  periodCents,
  periodEnd,
  type SubscriptionEvent,
  type SubscriptionStatus,
  type SubscriptionTransition,
  storageReadOnly,
  subscriptionAwaitsPayment,
  subscriptionEventTypes,
  subscriptionStatuses,
  withdrawalDeadline,
  withdrawalRefundCents,
} from "../../../server/domain/subscription-lifecycle.ts";

/**
 * The events as cases: two events depend on what they carry, so each has two cases (a
 * failed charge that is not the last and the last; a withdrawal in time and a late one).
 */
const cases = {
  payment_paid: { type: "payment_paid", paymentId: "tr_7UhSN1zuXS" },
  payment_failed: { type: "payment_failed", paymentId: "tr_7UhSN1zuXS" },
  payment_cancelled: { type: "payment_cancelled", paymentId: "tr_7UhSN1zuXS" },
  payment_expired: { type: "payment_expired", paymentId: "tr_7UhSN1zuXS" },
  unpaid_expired: { type: "unpaid_expired" },
  restarted: { type: "restarted" },
  cancelled: { type: "cancelled" },
  charge_paid: { type: "charge_paid", paymentId: "tr_Renew2027" },
  charge_failed: { type: "charge_failed", paymentId: "tr_Renew2027", attempt: 1 },
  charge_failed_last: { type: "charge_failed", paymentId: "tr_Retry2027", attempt: lastChargeAttempt },
  notice_given: { type: "notice_given" },
  period_ended: { type: "period_ended" },
  withdrawn: { type: "withdrawn", on: "2027-01-15", startedOn: "2027-01-01" },
  withdrawn_late: { type: "withdrawn", on: "2027-01-16", startedOn: "2027-01-01" },
} satisfies Record<string, SubscriptionEvent>;
type Case = keyof typeof cases;

/** "→ active": moves on; "= active": allowed, changes nothing; "refused". */
function outcome(transition: SubscriptionTransition): string {
  if (!transition.ok) return "refused";
  return `${transition.changed ? "→" : "="} ${transition.next}`;
}

/** Every status against every case, the outcome written out. */
const table: Array<[SubscriptionStatus, Case, string]> = [
  ["awaiting_payment", "payment_paid", "→ active"],
  ["awaiting_payment", "payment_failed", "= awaiting_payment"],
  ["awaiting_payment", "payment_cancelled", "= awaiting_payment"],
  ["awaiting_payment", "payment_expired", "= awaiting_payment"],
  ["awaiting_payment", "unpaid_expired", "→ expired"],
  ["awaiting_payment", "restarted", "= awaiting_payment"],
  ["awaiting_payment", "cancelled", "→ cancelled"],
  ["awaiting_payment", "charge_paid", "refused"],
  ["awaiting_payment", "charge_failed", "= awaiting_payment"],
  ["awaiting_payment", "charge_failed_last", "= awaiting_payment"],
  ["awaiting_payment", "notice_given", "→ cancelled"],
  ["awaiting_payment", "period_ended", "refused"],
  ["awaiting_payment", "withdrawn", "refused"],
  ["awaiting_payment", "withdrawn_late", "refused"],

  ["active", "payment_paid", "= active"],
  ["active", "payment_failed", "= active"],
  ["active", "payment_cancelled", "= active"],
  ["active", "payment_expired", "= active"],
  ["active", "unpaid_expired", "refused"],
  ["active", "restarted", "refused"],
  ["active", "cancelled", "→ cancelled"],
  ["active", "charge_paid", "→ active"],
  ["active", "charge_failed", "→ past_due"],
  ["active", "charge_failed_last", "→ suspended"],
  ["active", "notice_given", "→ cancelling"],
  ["active", "period_ended", "refused"],
  ["active", "withdrawn", "→ withdrawn"],
  ["active", "withdrawn_late", "refused"],

  ["past_due", "payment_paid", "= past_due"],
  ["past_due", "payment_failed", "= past_due"],
  ["past_due", "payment_cancelled", "= past_due"],
  ["past_due", "payment_expired", "= past_due"],
  ["past_due", "unpaid_expired", "refused"],
  ["past_due", "restarted", "refused"],
  ["past_due", "cancelled", "→ cancelled"],
  ["past_due", "charge_paid", "→ active"],
  ["past_due", "charge_failed", "= past_due"],
  ["past_due", "charge_failed_last", "→ suspended"],
  ["past_due", "notice_given", "→ cancelled"],
  ["past_due", "period_ended", "refused"],
  ["past_due", "withdrawn", "→ withdrawn"],
  ["past_due", "withdrawn_late", "refused"],

  ["suspended", "payment_paid", "= suspended"],
  ["suspended", "payment_failed", "= suspended"],
  ["suspended", "payment_cancelled", "= suspended"],
  ["suspended", "payment_expired", "= suspended"],
  ["suspended", "unpaid_expired", "refused"],
  ["suspended", "restarted", "refused"],
  ["suspended", "cancelled", "→ cancelled"],
  ["suspended", "charge_paid", "→ active"],
  ["suspended", "charge_failed", "= suspended"],
  ["suspended", "charge_failed_last", "= suspended"],
  ["suspended", "notice_given", "→ cancelled"],
  ["suspended", "period_ended", "refused"],
  ["suspended", "withdrawn", "→ withdrawn"],
  ["suspended", "withdrawn_late", "refused"],

  ["cancelling", "payment_paid", "= cancelling"],
  ["cancelling", "payment_failed", "= cancelling"],
  ["cancelling", "payment_cancelled", "= cancelling"],
  ["cancelling", "payment_expired", "= cancelling"],
  ["cancelling", "unpaid_expired", "refused"],
  ["cancelling", "restarted", "refused"],
  ["cancelling", "cancelled", "→ cancelled"],
  ["cancelling", "charge_paid", "refused"],
  ["cancelling", "charge_failed", "= cancelling"],
  ["cancelling", "charge_failed_last", "= cancelling"],
  ["cancelling", "notice_given", "= cancelling"],
  ["cancelling", "period_ended", "→ cancelled"],
  ["cancelling", "withdrawn", "→ withdrawn"],
  ["cancelling", "withdrawn_late", "refused"],

  ["cancelled", "payment_paid", "refused"],
  ["cancelled", "payment_failed", "= cancelled"],
  ["cancelled", "payment_cancelled", "= cancelled"],
  ["cancelled", "payment_expired", "= cancelled"],
  ["cancelled", "unpaid_expired", "refused"],
  ["cancelled", "restarted", "→ awaiting_payment"],
  ["cancelled", "cancelled", "= cancelled"],
  ["cancelled", "charge_paid", "refused"],
  ["cancelled", "charge_failed", "= cancelled"],
  ["cancelled", "charge_failed_last", "= cancelled"],
  ["cancelled", "notice_given", "= cancelled"],
  ["cancelled", "period_ended", "= cancelled"],
  ["cancelled", "withdrawn", "refused"],
  ["cancelled", "withdrawn_late", "refused"],

  ["expired", "payment_paid", "refused"],
  ["expired", "payment_failed", "= expired"],
  ["expired", "payment_cancelled", "= expired"],
  ["expired", "payment_expired", "= expired"],
  ["expired", "unpaid_expired", "= expired"],
  ["expired", "restarted", "→ awaiting_payment"],
  ["expired", "cancelled", "refused"],
  ["expired", "charge_paid", "refused"],
  ["expired", "charge_failed", "= expired"],
  ["expired", "charge_failed_last", "= expired"],
  ["expired", "notice_given", "refused"],
  ["expired", "period_ended", "refused"],
  ["expired", "withdrawn", "refused"],
  ["expired", "withdrawn_late", "refused"],

  ["withdrawn", "payment_paid", "refused"],
  ["withdrawn", "payment_failed", "= withdrawn"],
  ["withdrawn", "payment_cancelled", "= withdrawn"],
  ["withdrawn", "payment_expired", "= withdrawn"],
  ["withdrawn", "unpaid_expired", "refused"],
  ["withdrawn", "restarted", "→ awaiting_payment"],
  ["withdrawn", "cancelled", "refused"],
  ["withdrawn", "charge_paid", "refused"],
  ["withdrawn", "charge_failed", "= withdrawn"],
  ["withdrawn", "charge_failed_last", "= withdrawn"],
  ["withdrawn", "notice_given", "refused"],
  ["withdrawn", "period_ended", "refused"],
  ["withdrawn", "withdrawn", "= withdrawn"],
  ["withdrawn", "withdrawn_late", "= withdrawn"],
];

describe("a subscription's life", () => {
  it("has an outcome written down for every status and every event, once", () => {
    const pairs = table.map(([status, name]) => `${status} × ${name}`);
    const all = subscriptionStatuses.flatMap((status) =>
      Object.keys(cases).map((name) => `${status} × ${name}`),
    );
    expect(new Set(pairs).size).toBe(table.length);
    expect([...pairs].sort()).toEqual([...all].sort());
    // Every event type has at least one case.
    expect(new Set(Object.values(cases).map((event) => event.type))).toEqual(new Set(subscriptionEventTypes));
    expect(table).toHaveLength(8 * 14);
  });

  it.each(table)("a subscription %s given %s: %s", (status, name, expected) => {
    expect(outcome(applySubscriptionEvent(status, cases[name]))).toBe(expected);
  });

  it("gives every refusal a reason that names the subscription's status", () => {
    for (const [status, name, expected] of table) {
      if (expected !== "refused") continue;
      const result = applySubscriptionEvent(status, cases[name]);
      if (result.ok) throw new Error(`${status} × ${name} was allowed`);
      expect(result.reason, `${status} × ${name}`).toContain(status);
    }
  });

  it("refuses money for an ended subscription with a reason that asks for a refund and names the payment", () => {
    for (const status of ["expired", "cancelled", "withdrawn"] as const) {
      for (const type of ["payment_paid", "charge_paid"] as const) {
        const result = applySubscriptionEvent(status, { type, paymentId: "tr_late" });
        expect(result).toEqual({ ok: false, reason: expect.stringContaining("tr_late") });
        if (!result.ok) expect(result.reason).toContain("refund");
      }
    }
  });

  it("retries a failed charge twice, after 3 and 7 days: only the third failure suspends", () => {
    expect(chargeRetryDays).toEqual([3, 7]);
    expect(lastChargeAttempt).toBe(3);
    const failed = (attempt: number) =>
      outcome(applySubscriptionEvent("past_due", { type: "charge_failed", paymentId: "tr_x", attempt }));
    expect([1, 2, 3].map(failed)).toEqual(["= past_due", "= past_due", "→ suspended"]);
  });

  it("accepts a withdrawal up to the 14th day after the first period began, not after", () => {
    expect(withdrawalDeadline("2027-01-01")).toBe("2027-01-15");
    expect(withdrawalDeadline("2027-02-20")).toBe("2027-03-06");
  });

  it("only a subscription awaiting payment can be paid; only a suspended one has read-only storage", () => {
    expect(subscriptionStatuses.filter(subscriptionAwaitsPayment)).toEqual(["awaiting_payment"]);
    expect(subscriptionStatuses.filter(storageReadOnly)).toEqual(["suspended"]);
    expect(isSubscriptionStatus("past_due")).toBe(true);
    expect(isSubscriptionStatus("paused")).toBe(false);
  });
});

describe("the price of a period", () => {
  const plus = { monthlyCents: 599, offer: { monthlyCents: 299, months: 3 } };
  it("is the offer's for the offer's months, then the plan's", () => {
    expect([1, 2, 3, 4, 5].map((n) => periodCents(plus, n))).toEqual([299, 299, 299, 599, 599]);
    expect(periodCents({ monthlyCents: 299, offer: undefined }, 1)).toBe(299);
  });
});

describe("a withdrawal's refund", () => {
  const january = { start: "2027-01-01", end: "2027-01-31" };
  it.each([
    // 31 days paid 599 cents; the day of withdrawal counts as used.
    ["2027-01-01", Math.floor((599 * 30) / 31)],
    ["2027-01-15", Math.floor((599 * 16) / 31)],
    ["2027-01-31", 0],
    // Before the period (a withdrawal the day before it starts): all of it.
    ["2026-12-31", 599],
  ])("on %s pays back %i cents", (on, cents) => {
    expect(withdrawalRefundCents(599, january, on)).toBe(cents);
  });
});

describe("the end of a paid period", () => {
  it.each([
    ["2026-05-04", "2026-06-03"],
    ["2026-12-15", "2027-01-14"],
    ["2026-01-01", "2026-01-31"],
    // A month without the same date ends with its last day.
    ["2026-01-31", "2026-02-28"],
    ["2028-01-30", "2028-02-29"],
    ["2026-03-31", "2026-04-30"],
  ])("a period starting %s runs to %s", (start, end) => {
    expect(periodEnd(start)).toBe(end);
  });
});
