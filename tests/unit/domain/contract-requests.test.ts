import { describe, expect, it } from "vitest";
import {
  cancelReceipt,
  linkFresh,
  receivedOn,
  type SubscriptionStanding,
  withdrawReceipt,
} from "../../../server/domain/contract-requests.ts";
import { subscriptionStatuses } from "../../../server/domain/subscription-lifecycle.ts";

const paid: SubscriptionStanding = {
  status: "active",
  paidFrom: "2026-11-28",
  paidUntil: "2026-12-27",
  startedOn: "2026-11-28",
  endsOn: undefined,
  createdAt: "2026-11-28T09:00:00.000Z",
};

describe("what the receipt of a cancellation says", () => {
  it("for every status: a link ending with the paid period, at once, already given, or nothing to end", () => {
    const outcomes = Object.fromEntries(
      subscriptionStatuses.map((status) => [
        status,
        cancelReceipt({ ...paid, status, endsOn: "2026-12-27" }),
      ]),
    );
    expect(outcomes).toEqual({
      awaiting_payment: { kind: "link", endsOn: undefined },
      active: { kind: "link", endsOn: "2026-12-27" },
      past_due: { kind: "link", endsOn: undefined },
      suspended: { kind: "link", endsOn: undefined },
      cancelling: { kind: "already", endsOn: "2026-12-27" },
      cancelled: { kind: "none" },
      expired: { kind: "none" },
      withdrawn: { kind: "none" },
    });
    expect(cancelReceipt(undefined)).toEqual({ kind: "none" });
  });
});

describe("what the receipt of a withdrawal says", () => {
  it("a link up to the 14th day after the first period began, counted by the day it arrived", () => {
    expect(withdrawReceipt(paid, "2026-12-12")).toEqual({
      kind: "link",
      endsOn: "2026-12-12",
      deadline: "2026-12-12",
    });
    expect(withdrawReceipt(paid, "2026-12-13")).toEqual({ kind: "late", deadline: "2026-12-12" });
    expect(withdrawReceipt({ ...paid, status: "cancelling" }, "2026-12-01")).toMatchObject({ kind: "link" });
  });

  it("nothing to withdraw from once it ended, before it was paid, or without a subscription", () => {
    for (const status of ["awaiting_payment", "cancelled", "expired", "withdrawn"] as const)
      expect(withdrawReceipt({ ...paid, status }, "2026-12-01")).toEqual({ kind: "none" });
    expect(withdrawReceipt(undefined, "2026-12-01")).toEqual({ kind: "none" });
  });
});

describe("the day and the link of a request", () => {
  it("takes the day of receipt on the shop's clock: 23:30 UTC in winter is the next day in Amsterdam", () => {
    expect(receivedOn(new Date("2026-12-02T23:30:00Z"))).toBe("2026-12-03");
    expect(receivedOn(new Date("2026-12-02T22:59:00Z"))).toBe("2026-12-02");
  });

  it("works for 7 days after the button, to the second", () => {
    const sent = "2026-12-02T09:15:00.000Z";
    expect(linkFresh(sent, new Date("2026-12-09T09:14:59Z"))).toBe(true);
    expect(linkFresh(sent, new Date("2026-12-09T09:15:00Z"))).toBe(false);
  });
});
