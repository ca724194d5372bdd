import { describe, expect, it } from "vitest";
import { formatPrice } from "../../../server/domain/money.ts";

// Intl puts a narrow no-break space between amount and symbol; compare on plain spaces.
const plain = (s: string) => s.replace(/\s/g, " ");

describe("formatPrice", () => {
  it("writes euros the Dutch way", () => {
    expect(plain(formatPrice(4999, "nl"))).toBe("€ 49,99");
    expect(plain(formatPrice(123456, "nl"))).toBe("€ 1.234,56");
  });

  it("writes euros the German way", () => {
    expect(plain(formatPrice(4999, "de"))).toBe("49,99 €");
    expect(plain(formatPrice(123456, "de"))).toBe("1.234,56 €");
  });

  it("refuses fractions of a cent", () => {
    expect(() => formatPrice(10.5, "nl")).toThrow(TypeError);
  });
});
