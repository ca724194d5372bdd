import { describe, expect, it } from "vitest";
import { orderLinkCode, orderLinkHolds } from "../../../server/domain/order-link.ts";

const secret = "the shop's secret for its links";

describe("an order page's own secret", () => {
  it("is the same for one order and shop, and another for another order or another shop's secret", () => {
    const code = orderLinkCode(secret, 7);
    expect(code).toMatch(/^[\w-]{43}$/);
    expect(orderLinkCode(secret, 7)).toBe(code);
    expect(orderLinkCode(secret, 8)).not.toBe(code);
    expect(orderLinkCode("another shop's secret", 7)).not.toBe(code);
  });

  it("opens only its own order: another order's, a changed one, or anything not a code does not", () => {
    const code = orderLinkCode(secret, 7);
    expect(orderLinkHolds(secret, 7, code)).toBe(true);
    expect(orderLinkHolds(secret, 8, code)).toBe(false);
    expect(orderLinkHolds(secret, 7, `${code.slice(0, -1)}${code.endsWith("A") ? "B" : "A"}`)).toBe(false);
    for (const wrong of [undefined, "", code.slice(1), `${code}x`, ["a"], 7, "é".repeat(43)]) {
      expect(orderLinkHolds(secret, 7, wrong)).toBe(false);
    }
  });
});
