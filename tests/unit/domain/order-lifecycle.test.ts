import { describe, expect, it } from "vitest";
import {
  applyEvent,
  awaitsPayment,
  isFinal,
  isOrderStatus,
  isPaid,
  type OrderEvent,
  type OrderEventType,
  type OrderStatus,
  orderEventTypes,
  orderStatuses,
  type Transition,
  unpaidExpiryHours,
} from "../../../server/domain/order-lifecycle.ts";

function event(type: OrderEventType): OrderEvent {
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

/** "→ paid": moves on; "= paid": allowed, changes nothing; "refused". */
function outcome(transition: Transition): string {
  if (!transition.ok) return "refused";
  return `${transition.changed ? "→" : "="} ${transition.next}`;
}

/** Every status against every event, the outcome written out. */
const table: Array<[OrderStatus, OrderEventType, string]> = [
  ["awaiting_payment", "payment_paid", "→ paid"],
  ["awaiting_payment", "payment_failed", "= awaiting_payment"],
  ["awaiting_payment", "payment_cancelled", "= awaiting_payment"],
  ["awaiting_payment", "payment_expired", "= awaiting_payment"],
  ["awaiting_payment", "order_expired", "→ expired"],
  ["awaiting_payment", "order_cancelled", "→ cancelled"],
  ["awaiting_payment", "production_started", "refused"],
  ["awaiting_payment", "shipped", "refused"],

  ["paid", "payment_paid", "= paid"],
  ["paid", "payment_failed", "= paid"],
  ["paid", "payment_cancelled", "= paid"],
  ["paid", "payment_expired", "= paid"],
  ["paid", "order_expired", "refused"],
  ["paid", "order_cancelled", "refused"],
  ["paid", "production_started", "→ in_production"],
  ["paid", "shipped", "refused"],

  ["in_production", "payment_paid", "= in_production"],
  ["in_production", "payment_failed", "= in_production"],
  ["in_production", "payment_cancelled", "= in_production"],
  ["in_production", "payment_expired", "= in_production"],
  ["in_production", "order_expired", "refused"],
  ["in_production", "order_cancelled", "refused"],
  ["in_production", "production_started", "= in_production"],
  ["in_production", "shipped", "→ shipped"],

  ["shipped", "payment_paid", "= shipped"],
  ["shipped", "payment_failed", "= shipped"],
  ["shipped", "payment_cancelled", "= shipped"],
  ["shipped", "payment_expired", "= shipped"],
  ["shipped", "order_expired", "refused"],
  ["shipped", "order_cancelled", "refused"],
  ["shipped", "production_started", "= shipped"],
  ["shipped", "shipped", "= shipped"],

  ["cancelled", "payment_paid", "refused"],
  ["cancelled", "payment_failed", "= cancelled"],
  ["cancelled", "payment_cancelled", "= cancelled"],
  ["cancelled", "payment_expired", "= cancelled"],
  ["cancelled", "order_expired", "refused"],
  ["cancelled", "order_cancelled", "= cancelled"],
  ["cancelled", "production_started", "refused"],
  ["cancelled", "shipped", "refused"],

  ["expired", "payment_paid", "refused"],
  ["expired", "payment_failed", "= expired"],
  ["expired", "payment_cancelled", "= expired"],
  ["expired", "payment_expired", "= expired"],
  ["expired", "order_expired", "= expired"],
  ["expired", "order_cancelled", "refused"],
  ["expired", "production_started", "refused"],
  ["expired", "shipped", "refused"],
];

describe("the order's life", () => {
  it("has an outcome written down for every status and every event, once", () => {
    const pairs = table.map(([status, type]) => `${status} × ${type}`);
    const all = orderStatuses.flatMap((status) => orderEventTypes.map((type) => `${status} × ${type}`));
    expect(new Set(pairs).size).toBe(table.length);
    expect([...pairs].sort()).toEqual([...all].sort());
    expect(table).toHaveLength(6 * 8);
  });

  it.each(table)("an order %s given %s: %s", (status, type, expected) => {
    expect(outcome(applyEvent(status, event(type)))).toBe(expected);
  });

  it("gives every refusal a reason that names the order's status", () => {
    for (const [status, type, expected] of table) {
      if (expected !== "refused") continue;
      const result = applyEvent(status, event(type));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason, `${status} × ${type}`).toContain(status);
    }
  });

  it("refuses money for an expired or cancelled order with a reason that asks for a refund and names the payment", () => {
    for (const status of ["expired", "cancelled"] as const) {
      const result = applyEvent(status, { type: "payment_paid", paymentId: "tr_late" });
      expect(result).toEqual({ ok: false, reason: expect.stringContaining("tr_late") });
      if (!result.ok) expect(result.reason).toContain("refund");
    }
  });

  it("walks the paid path to shipped, and a replay of every step on the way changes nothing", () => {
    let status: OrderStatus = "awaiting_payment";
    const steps: OrderEvent[] = [
      { type: "payment_failed", paymentId: "tr_1" },
      { type: "payment_paid", paymentId: "tr_2" },
      { type: "production_started" },
      { type: "shipped" },
    ];
    const seen: OrderStatus[] = [];
    for (const step of steps) {
      const result = applyEvent(status, step);
      if (!result.ok) throw new Error(result.reason);
      status = result.next;
      seen.push(status);
      for (const earlier of steps.slice(0, steps.indexOf(step) + 1)) {
        expect(applyEvent(status, earlier)).toEqual({ ok: true, next: status, changed: false });
      }
    }
    expect(seen).toEqual(["awaiting_payment", "paid", "in_production", "shipped"]);
  });
});

describe("describing a status", () => {
  it("knows the final statuses: shipped, cancelled and expired", () => {
    expect(orderStatuses.filter(isFinal)).toEqual(["shipped", "cancelled", "expired"]);
  });

  it("knows where the money was received", () => {
    expect(orderStatuses.filter(isPaid)).toEqual(["paid", "in_production", "shipped"]);
  });

  it("offers payment only while the order awaits it", () => {
    expect(orderStatuses.filter(awaitsPayment)).toEqual(["awaiting_payment"]);
  });

  it("recognises stored statuses and nothing else", () => {
    expect(orderStatuses.every(isOrderStatus)).toBe(true);
    for (const other of ["", "Paid", "refunded", "awaiting payment"])
      expect(isOrderStatus(other)).toBe(false);
  });

  it("lets an unpaid order wait a day", () => {
    expect(unpaidExpiryHours).toBe(24);
  });
});
