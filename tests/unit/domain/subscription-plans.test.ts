import { describe, expect, it } from "vitest";
import {
  offerEndsAt,
  planById,
  plans,
  recommendedPlanId,
} from "../../../server/domain/subscription-plans.ts";

describe("the subscription's plans", () => {
  it("have unique ids, whole-cent prices, and introductory offers cheaper than the plan", () => {
    expect(new Set(plans.map((p) => p.id)).size).toBe(plans.length);
    for (const plan of plans) {
      expect(Number.isInteger(plan.monthlyCents)).toBe(true);
      if (plan.offer) expect(plan.offer.monthlyCents).toBeLessThan(plan.monthlyCents);
    }
    expect(planById(recommendedPlanId)).toBeDefined();
    expect(planById("gold")).toBeUndefined();
    expect(planById(undefined)).toBeUndefined();
  });
});

describe("the end of this month's offers", () => {
  it("is midnight at the start of next month, Amsterdam time", () => {
    // Winter: Amsterdam is UTC+1.
    expect(offerEndsAt(new Date("2026-11-23T13:00:00Z")).toISOString()).toBe("2026-11-30T23:00:00.000Z");
    // Summer: UTC+2.
    expect(offerEndsAt(new Date("2026-07-10T08:00:00Z")).toISOString()).toBe("2026-07-31T22:00:00.000Z");
  });

  it("counts the month as Amsterdam sees it, also in the hour around midnight UTC", () => {
    // 23:30 UTC on 31 October is already 1 November in Amsterdam (UTC+1 after the clocks go back).
    expect(offerEndsAt(new Date("2026-10-31T23:30:00Z")).toISOString()).toBe("2026-11-30T23:00:00.000Z");
    expect(offerEndsAt(new Date("2026-10-31T22:30:00Z")).toISOString()).toBe("2026-10-31T23:00:00.000Z");
  });

  it("follows a clock change within the month: March ends in summer time", () => {
    expect(offerEndsAt(new Date("2026-03-02T12:00:00Z")).toISOString()).toBe("2026-03-31T22:00:00.000Z");
    expect(offerEndsAt(new Date("2026-12-31T12:00:00Z")).toISOString()).toBe("2026-12-31T23:00:00.000Z");
  });
});
