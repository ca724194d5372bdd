import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Passwords are stored as scrypt hashes with a random salt per password, never as they
 * were typed: "scrypt$<log2 N>$<r>$<p>$<salt>$<hash>" (base64url), so the cost can be
 * raised later and old hashes still verify. Server only (node:crypto).
 *
 * N = 2^15, r = 8 follows OWASP's scrypt minimum; about 50-100 ms per hash on one core.
 */
const cost = { log2N: 15, r: 8, p: 1 };
const keyLength = 32;

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** log2N;
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly that, with no room to spare.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, keyLength, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost.log2N, cost.r, cost.p);
  return ["scrypt", cost.log2N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join(
    "$",
  );
}

/** Whether the password matches a stored hash; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, log2N, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const numbers = [log2N, r, p].map(Number);
  if (numbers.some((n) => !Number.isInteger(n) || n < 1) || (numbers[0] ?? 0) > 20) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(
    password,
    Buffer.from(salt, "base64url"),
    ...(numbers as [number, number, number]),
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}
