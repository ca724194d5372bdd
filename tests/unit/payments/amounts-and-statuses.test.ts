import { describe, expect, it } from "vitest";
import {
  centsToDecimal,
  decimalToCents,
  isFinalStatus,
  isPaymentStatus,
  paymentStatuses,
} from "../../../server/payments/provider.ts";

describe("amounts as providers write them", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [99, "0.99"],
    [100, "1.00"],
    [4_995, "49.95"],
    [123_456_789, "1234567.89"],
  ])("%i cents are %s", (cents, text) => {
    expect(centsToDecimal(cents)).toBe(text);
    expect(decimalToCents(text)).toBe(cents);
  });

  it("every cent up to 1000 euros goes there and back unchanged", () => {
    for (let cents = 0; cents <= 100_000; cents++) expect(decimalToCents(centsToDecimal(cents))).toBe(cents);
  });

  it("reads amounts with fewer decimals", () => {
    expect(decimalToCents("12")).toBe(1_200);
    expect(decimalToCents("12.3")).toBe(1_230);
  });

  it.each(["", "12.345", "-1.00", "1,00", "1e3", " 1.00", "abc"])("%j is not an amount", (text) => {
    expect(decimalToCents(text)).toBeUndefined();
  });

  it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])("%d cents cannot be written", (cents) => {
    expect(() => centsToDecimal(cents)).toThrow(RangeError);
  });
});

describe("payment statuses", () => {
  it("paid, failed, canceled and expired are final; open, pending and authorized may still change", () => {
    expect(paymentStatuses.filter(isFinalStatus)).toEqual(["paid", "failed", "canceled", "expired"]);
  });

  it("knows its own statuses only", () => {
    expect(paymentStatuses.every(isPaymentStatus)).toBe(true);
    expect(isPaymentStatus("cancelled")).toBe(false);
    expect(isPaymentStatus(undefined)).toBe(false);
  });
});
