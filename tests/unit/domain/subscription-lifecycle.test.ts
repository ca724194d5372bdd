import { describe, expect, it } from "vitest";
import {
  applySubscriptionEvent,
  isSubscriptionStatus,
  periodEnd,
  type SubscriptionEvent,
  type SubscriptionEventType,
  type SubscriptionStatus,
  type SubscriptionTransition,
  subscriptionAwaitsPayment,
  subscriptionEventTypes,
  subscriptionStatuses,
} from "../../../server/domain/subscription-lifecycle.ts";

function event(type: SubscriptionEventType): SubscriptionEvent {
  switch (type) {
    case "payment_paid":
    case "payment_failed":
    case "payment_cancelled":
    case "payment_expired":
      return { type, paymentId: "tr_7UhSN1zuXS" };
    default:
      return { type };
  }
}

/** "→ active": moves on; "= active": allowed, changes nothing; "refused". */
function outcome(transition: SubscriptionTransition): string {
  if (!transition.ok) return "refused";
  return `${transition.changed ? "→" : "="} ${transition.next}`;
}

/** Every status against every event, the outcome written out. */
const table: Array<[SubscriptionStatus, SubscriptionEventType, string]> = [
  ["awaiting_payment", "payment_paid", "→ active"],
  ["awaiting_payment", "payment_failed", "= awaiting_payment"],
  ["awaiting_payment", "payment_cancelled", "= awaiting_payment"],
  ["awaiting_payment", "payment_expired", "= awaiting_payment"],
  ["awaiting_payment", "unpaid_expired", "→ expired"],
  ["awaiting_payment", "restarted", "= awaiting_payment"],
  ["awaiting_payment", "cancelled", "→ cancelled"],

  ["active", "payment_paid", "= active"],
  ["active", "payment_failed", "= active"],
  ["active", "payment_cancelled", "= active"],
  ["active", "payment_expired", "= active"],
  ["active", "unpaid_expired", "refused"],
  ["active", "restarted", "refused"],
  ["active", "cancelled", "→ cancelled"],

  ["expired", "payment_paid", "refused"],
  ["expired", "payment_failed", "= expired"],
  ["expired", "payment_cancelled", "= expired"],
  ["expired", "payment_expired", "= expired"],
  ["expired", "unpaid_expired", "= expired"],
  ["expired", "restarted", "→ awaiting_payment"],
  ["expired", "cancelled", "refused"],

  ["cancelled", "payment_paid", "refused"],
  ["cancelled", "payment_failed", "= cancelled"],
  ["cancelled", "payment_cancelled", "= cancelled"],
  ["cancelled", "payment_expired", "= cancelled"],
  ["cancelled", "unpaid_expired", "refused"],
  ["cancelled", "restarted", "→ awaiting_payment"],
  ["cancelled", "cancelled", "= cancelled"],
];

describe("a subscription's life", () => {
  it("has an outcome written down for every status and every event, once", () => {
    const pairs = table.map(([status, type]) => `${status} × ${type}`);
    const all = subscriptionStatuses.flatMap((status) =>
      subscriptionEventTypes.map((type) => `${status} × ${type}`),
    );
    expect(new Set(pairs).size).toBe(table.length);
    expect([...pairs].sort()).toEqual([...all].sort());
    expect(table).toHaveLength(4 * 7);
  });

  it.each(table)("a subscription %s given %s: %s", (status, type, expected) => {
    expect(outcome(applySubscriptionEvent(status, event(type)))).toBe(expected);
  });

  it("gives every refusal a reason that names the subscription's status", () => {
    for (const [status, type, expected] of table) {
      if (expected !== "refused") continue;
      const result = applySubscriptionEvent(status, event(type));
      if (result.ok) throw new Error(`${status} × ${type} was allowed`);
      expect(result.reason, `${status} × ${type}`).toContain(status);
    }
  });

  it("refuses money for an expired or cancelled sign-up with a reason that asks for a refund and names the payment", () => {
    for (const status of ["expired", "cancelled"] as const) {
      const result = applySubscriptionEvent(status, { type: "payment_paid", paymentId: "tr_late" });
      expect(result).toEqual({ ok: false, reason: expect.stringContaining("tr_late") });
      if (!result.ok) expect(result.reason).toContain("refund");
    }
  });

  it("only a subscription awaiting payment can be paid; statuses outside the list are not statuses", () => {
    expect(subscriptionStatuses.filter(subscriptionAwaitsPayment)).toEqual(["awaiting_payment"]);
    expect(isSubscriptionStatus("active")).toBe(true);
    expect(isSubscriptionStatus("paused")).toBe(false);
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
