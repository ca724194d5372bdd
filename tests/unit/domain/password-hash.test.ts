import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  checkPassword,
  hashPassword,
  verifyAndUpgrade,
  verifyPassword,
} from "../../../server/domain/password-hash.ts";

/** A hash as the shop stored it before the cost went up (or with any other parameters). */
function storedWith(password: string, log2N: number, r: number, p: number, saltBytes = 16): string {
  const salt = randomBytes(saltBytes);
  const key = scryptSync(password.normalize("NFC"), salt, 32, {
    N: 2 ** log2N,
    r,
    p,
    maxmem: 256 * 2 ** log2N * r,
  });
  return ["scrypt", log2N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

describe("stored passwords", () => {
  it("are scrypt hashes at OWASP's cost with their own salt, never the password itself", async () => {
    const a = await hashPassword("Zomer aan zee 2026!");
    const b = await hashPassword("Zomer aan zee 2026!");
    expect(a).toMatch(/^scrypt\$15\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
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
    const good = await hashPassword("anything");
    const [, , , , salt, hash] = good.split("$");
    for (const stored of [
      "",
      "plain",
      "scrypt$15$8$1$",
      "bcrypt$10$abc$def",
      "scrypt$40$8$1$c2FsdA$aGFzaA",
      `scrypt$0$8$1$${salt}$${hash}`,
      `scrypt$15$0$1$${salt}$${hash}`,
      `scrypt$15$8$0$${salt}$${hash}`,
      `scrypt$1e1$8$1$${salt}$${hash}`,
      `scrypt$ 15$8$3$${salt}$${hash}`,
      `scrypt$15$8$3$${salt}$${hash}x`,
      `scrypt$15$8$3$${salt}$${hash?.slice(0, 40)}`,
      `scrypt$15$8$3$${salt}$${hash}$`,
      `scrypt$15$8$3$$${hash}`,
    ]) {
      expect(await verifyPassword("anything", stored), stored).toBe(false);
    }
  });

  it("refuse a stored hash that asks for more memory or work than the ceiling, without trying it", async () => {
    const good = await hashPassword("anything");
    const [, , , , salt, hash] = good.split("$");
    // Tried for real, each would take seconds and gigabytes, or make scrypt throw.
    for (const [log2N, r, p] of [
      [30, 8, 1],
      [20, 8, 1],
      [15, 255, 1],
      [15, 8, 999],
      [18, 8, 3],
    ]) {
      const stored = `scrypt$${log2N}$${r}$${p}$${salt}$${hash}`;
      expect(await checkPassword("anything", stored), stored).toEqual({ matches: false });
    }
  });
});

describe("a stored hash below today's cost", () => {
  const password = "Zomer aan zee 2026!";

  it("still verifies, and says it needs a new hash; today's hash does not", async () => {
    for (const old of [
      storedWith(password, 15, 8, 1),
      storedWith(password, 14, 8, 3),
      storedWith(password, 15, 8, 3, 8),
    ]) {
      expect(await checkPassword(password, old), old).toEqual({ matches: true, needsRehash: true });
    }
    expect(await checkPassword(password, await hashPassword(password))).toEqual({
      matches: true,
      needsRehash: false,
    });
    // OWASP's other setting (more memory, more work) is not below today's cost: never lowered.
    expect(await checkPassword(password, storedWith(password, 17, 8, 1))).toEqual({
      matches: true,
      needsRehash: false,
    });
  });

  it("is replaced at its next successful use by a hash at today's cost", async () => {
    const old = storedWith(password, 15, 8, 1);
    const stored: string[] = [];
    expect(await verifyAndUpgrade(password, old, async (next) => stored.push(next))).toBe(true);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/^scrypt\$15\$8\$3\$/);
    expect(await checkPassword(password, stored[0] as string)).toEqual({ matches: true, needsRehash: false });
    // Once upgraded, the next use stores nothing.
    expect(await verifyAndUpgrade(password, stored[0] as string, async (next) => stored.push(next))).toBe(
      true,
    );
    expect(stored).toHaveLength(1);
  });

  it("is never replaced after a wrong password, nor a malformed hash ever", async () => {
    const old = storedWith(password, 15, 8, 1);
    const stored: string[] = [];
    const keep = async (next: string) => stored.push(next);
    expect(await verifyAndUpgrade("zomer aan zee 2026!", old, keep)).toBe(false);
    expect(await verifyAndUpgrade("", old, keep)).toBe(false);
    expect(await verifyAndUpgrade(password, "scrypt$15$8$1$", keep)).toBe(false);
    expect(stored).toEqual([]);
  });
});
