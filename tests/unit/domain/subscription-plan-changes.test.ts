import { describe, expect, it } from "vitest";
import { planChangeKind, upgradeCents } from "../../../server/domain/subscription-plan-changes.ts";

const basis = { monthlyCents: 299 };
const plus = { monthlyCents: 599, offer: { monthlyCents: 299, months: 3 } };
const premium = { monthlyCents: 999, offer: { monthlyCents: 499, months: 3 } };
/** A 30-day period: 1 to 30 November 2026. */
const november = { start: "2026-11-01", end: "2026-11-30" };

describe("a change of plan", () => {
  it("is an upgrade or a downgrade by the plans' own monthly prices, whatever an offer makes them cost now", () => {
    expect(planChangeKind(plus, premium)).toBe("upgrade");
    expect(planChangeKind(basis, plus)).toBe("upgrade");
    expect(planChangeKind(premium, plus)).toBe("downgrade");
    expect(planChangeKind(plus, basis)).toBe("downgrade");
    expect(planChangeKind(plus, { monthlyCents: 599 })).toBe("none");
  });

  it("charges the difference for the days left, today included, rounded down to a cent", () => {
    // Month 4 (no offer left): € 9,99 − € 5,99 = € 4,00 for 30 days; from the 16th, 15 of them.
    expect(upgradeCents(plus, premium, 4, november, "2026-11-16")).toBe(200);
    // On the first day the whole difference, on the last day one day's worth.
    expect(upgradeCents(plus, premium, 4, november, "2026-11-01")).toBe(400);
    expect(upgradeCents(plus, premium, 4, november, "2026-11-30")).toBe(13);
    // 4,00 × 11 / 30 = 1,4666…: down to 1,46.
    expect(upgradeCents(plus, premium, 4, november, "2026-11-20")).toBe(146);
  });

  it("prices both plans at the period's offer: month 2 of Plus's offer against month 2 of Premium's", () => {
    // € 4,99 − € 2,99 for the whole 30 days.
    expect(upgradeCents(plus, premium, 2, november, "2026-11-01")).toBe(200);
  });

  it("costs nothing now when the new plan's offer makes it no dearer this period", () => {
    expect(upgradeCents(basis, plus, 1, november, "2026-11-10")).toBe(0);
    // Once Plus's offer is over it costs the difference.
    expect(upgradeCents(basis, plus, 4, november, "2026-11-01")).toBe(300);
  });

  it("charges nothing for a downgrade, which waits for the next period", () => {
    expect(upgradeCents(premium, plus, 4, november, "2026-11-10")).toBe(0);
  });

  it("counts a 28-day February the same way", () => {
    const february = { start: "2027-02-01", end: "2027-02-28" };
    // 4,00 × 14 / 28.
    expect(upgradeCents(plus, premium, 4, february, "2027-02-15")).toBe(200);
  });
});
