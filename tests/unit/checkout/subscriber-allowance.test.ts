import { describe, expect, it } from "vitest";
import { subscriberAllowance } from "../../../server/domain/subscriber-allowance.ts";

const plus = { printsPerMonth: 20, photoBookDiscount: 10 };
const period = { paidFrom: "2026-12-01", paidUntil: "2026-12-31" };

describe("what a subscription allows now", () => {
  it("gives an active subscription its prints less those used this period", () => {
    expect(subscriberAllowance({ status: "active", ...period }, plus, 3, "2026-12-02")).toEqual({
      printsPerMonth: 20,
      freePrintsLeft: 17,
      photoBookDiscount: 10,
    });
    expect(subscriberAllowance({ status: "active", ...period }, plus, 25, "2026-12-02")?.freePrintsLeft).toBe(
      0,
    );
  });

  it("gives a cancelling one until its last paid day only", () => {
    const cancelling = { status: "cancelling" as const, ...period };
    expect(subscriberAllowance(cancelling, plus, 0, "2026-12-31")?.freePrintsLeft).toBe(20);
    expect(subscriberAllowance(cancelling, plus, 0, "2027-01-01")).toBeUndefined();
  });

  it("gives nothing past due, suspended, unpaid or without a subscription", () => {
    for (const status of ["past_due", "suspended", "awaiting_payment", "expired", "cancelled"] as const)
      expect(subscriberAllowance({ status, ...period }, plus, 0, "2026-12-02")).toBeUndefined();
    expect(subscriberAllowance(undefined, plus, 0, "2026-12-02")).toBeUndefined();
    expect(
      subscriberAllowance(
        { status: "active", paidFrom: undefined, paidUntil: undefined },
        plus,
        0,
        "2026-12-02",
      ),
    ).toBeUndefined();
  });
});
