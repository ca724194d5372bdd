import { describe, expect, it } from "vitest";
import { sharedFormTokens } from "../../server/http/security/form-protection.ts";

const hour = 60 * 60 * 1000;

describe("shared form tokens", () => {
  it("are the same for everyone within the hour, so pages with forms can be shared", () => {
    let now = Date.UTC(2026, 10, 25, 9, 5);
    const tokens = sharedFormTokens("secret-one", () => now);
    const first = tokens.current();
    now += 50 * 60 * 1000;
    expect(tokens.current()).toBe(first);
    now += 10 * 60 * 1000;
    expect(tokens.current()).not.toBe(first);
  });

  it("stay good for a day, for a form left open in a tab, and not a moment longer", () => {
    let now = Date.UTC(2026, 10, 25, 9, 59);
    const tokens = sharedFormTokens("secret-one", () => now);
    const token = tokens.current();
    now += 23 * hour;
    expect(tokens.verify(token)).toBe(true);
    now += hour;
    expect(tokens.verify(token)).toBe(false);
  });

  it("from the future, from another shop's secret or altered, are refused", () => {
    let now = Date.UTC(2026, 10, 25, 9, 0);
    const tokens = sharedFormTokens("secret-one", () => now);
    now += 2 * hour;
    const later = tokens.current();
    now -= 2 * hour;
    expect(tokens.verify(later)).toBe(false);

    const elsewhere = sharedFormTokens("secret-two", () => now).current();
    expect(tokens.isShared(elsewhere)).toBe(true);
    expect(tokens.verify(elsewhere)).toBe(false);

    const token = tokens.current();
    const flipped = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    for (const bad of [flipped, `${token}x`, "shared.", "shared.1.2", "", "abc-def"]) {
      expect(tokens.verify(bad), bad).toBe(false);
    }
  });

  it("are told apart from a shopper's own tokens", () => {
    const tokens = sharedFormTokens("secret-one");
    expect(tokens.isShared(tokens.current())).toBe(true);
    // The form of @fastify/csrf-protection's tokens: salt, a dash, a hash.
    expect(tokens.isShared("C1AFli16-6L9PhnDdXGKdQ-MbhlszXmCsP6kcaYk-CMmi0sLdptM")).toBe(false);
  });
});
