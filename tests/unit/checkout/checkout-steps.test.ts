import { describe, expect, it } from "vitest";
import { redirectFor } from "../../../server/domain/checkout-steps.ts";

const state = (orderableItems: number, hasAddress: boolean, blockedLines = 0) => ({
  orderableItems,
  blockedLines,
  hasAddress,
});

describe("the order of the checkout steps", () => {
  it("always shows the contents", () => {
    expect(redirectFor("cartContents", state(0, false))).toBeUndefined();
  });

  it("sends an empty cart back to the contents from every later step", () => {
    expect(redirectFor("cartAddress", state(0, true))).toBe("cartContents");
    expect(redirectFor("cartOverview", state(0, true))).toBe("cartContents");
  });

  it("sends a cart with a line that cannot be ordered back to the contents, where it says so", () => {
    expect(redirectFor("cartAddress", state(2, true, 1))).toBe("cartContents");
    expect(redirectFor("cartOverview", state(2, true, 1))).toBe("cartContents");
  });

  it("sends the overview to the address step until there is an address", () => {
    expect(redirectFor("cartAddress", state(1, false))).toBeUndefined();
    expect(redirectFor("cartOverview", state(1, false))).toBe("cartAddress");
    expect(redirectFor("cartOverview", state(1, true))).toBeUndefined();
  });
});
