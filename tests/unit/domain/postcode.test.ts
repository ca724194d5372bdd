import { describe, expect, it } from "vitest";
import { normalizePostcode } from "../../../server/domain/postcode.ts";

describe("Dutch postcodes", () => {
  it("accept four digits and two letters, however they are typed", () => {
    expect(normalizePostcode("NL", "1234AB")).toBe("1234 AB");
    expect(normalizePostcode("NL", " 1234 ab ")).toBe("1234 AB");
  });

  it("refuse a leading zero, missing letters and the unissued SA, SD and SS", () => {
    for (const bad of ["0123 AB", "1234", "12345", "1234 A", "1234 SA", "1234 sd", "1234 SS", "ABCD 12"]) {
      expect(normalizePostcode("NL", bad), bad).toBeUndefined();
    }
  });
});

describe("German postcodes", () => {
  it("accept five digits from 01001 to 99998", () => {
    expect(normalizePostcode("DE", "10115")).toBe("10115");
    expect(normalizePostcode("DE", "01001")).toBe("01001");
    expect(normalizePostcode("DE", "99998")).toBe("99998");
  });

  it("refuse anything else", () => {
    for (const bad of ["1011", "101155", "00999", "01000", "99999", "1234 AB", "1O115"]) {
      expect(normalizePostcode("DE", bad), bad).toBeUndefined();
    }
  });
});
