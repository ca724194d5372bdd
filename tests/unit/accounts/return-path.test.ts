import { describe, expect, it } from "vitest";
import { safeReturnPath } from "../../../server/http/security/account-guard.ts";

describe("where the sign-in page may send the shopper back to", () => {
  it.each([
    ["/account/bestellingen", "/account/bestellingen"],
    ["/winkelwagen/adres?adres=abc", "/winkelwagen/adres?adres=abc"],
    ["/", "/"],
  ])("a path of the shop: %s", (value, expected) => {
    expect(safeReturnPath(value)).toBe(expected);
  });

  it.each([
    "https://evil.example/",
    "//evil.example/",
    "/\\evil.example",
    "javascript:alert(1)",
    "account",
    "/account\n/x",
    "",
    `/${"a".repeat(600)}`,
  ])("never anything else: %j", (value) => {
    expect(safeReturnPath(value)).toBeUndefined();
  });

  it("nothing that is not text", () => {
    expect(safeReturnPath(["/account"])).toBeUndefined();
    expect(safeReturnPath(undefined)).toBeUndefined();
  });
});
