import { describe, expect, it } from "vitest";
import { bytesPerGb, subscriberRoom } from "../../../server/domain/subscriber-storage.ts";
import type { SubscriptionStatus } from "../../../server/domain/subscription-lifecycle.ts";

const plus = (status: SubscriptionStatus) => ({ status, storageGb: 250 });

describe("a subscriber's photo storage", () => {
  it("takes nothing new while the subscription is suspended, however much room is left", () => {
    expect(subscriberRoom(plus("suspended"), 0, 1)).toBe("paused");
  });

  it("holds the plan's room while it runs, paid up, past due or under notice", () => {
    for (const status of ["active", "past_due", "cancelling"] as const) {
      expect(subscriberRoom(plus(status), 250 * bytesPerGb - 10, 10)).toBe("fits");
      expect(subscriberRoom(plus(status), 250 * bytesPerGb - 10, 11)).toBe("planFull");
    }
  });

  it("leaves the shop's own limits alone without a running subscription", () => {
    expect(subscriberRoom(undefined, 10_000 * bytesPerGb, 1)).toBe("fits");
    for (const status of ["awaiting_payment", "cancelled", "expired", "withdrawn"] as const) {
      expect(subscriberRoom(plus(status), 10_000 * bytesPerGb, 1)).toBe("fits");
    }
  });
});
