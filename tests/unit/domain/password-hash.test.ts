import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../../server/domain/password-hash.ts";

describe("stored passwords", () => {
  it("are scrypt hashes with their own salt, never the password itself", async () => {
    const a = await hashPassword("Zomer aan zee 2026!");
    const b = await hashPassword("Zomer aan zee 2026!");
    expect(a).toMatch(/^scrypt\$15\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("Zomer");
  });

  it("verify the right password only", async () => {
    const stored = await hashPassword("Größe-Maß 42");
    expect(await verifyPassword("Größe-Maß 42", stored)).toBe(true);
    // The same characters composed differently are the same password.
    expect(await verifyPassword("Gro\u0308ße-Maß 42", stored)).toBe(true);
    expect(await verifyPassword("größe-maß 42", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("never match a malformed or foreign hash", async () => {
    for (const stored of [
      "",
      "plain",
      "scrypt$15$8$1$",
      "bcrypt$10$abc$def",
      "scrypt$40$8$1$c2FsdA$aGFzaA",
    ]) {
      expect(await verifyPassword("anything", stored), stored).toBe(false);
    }
  });
});
