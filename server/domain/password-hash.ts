import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Passwords are stored as scrypt hashes with a random salt per password, never as they
 * were typed: "scrypt$<log2 N>$<r>$<p>$<salt>$<hash>" (base64url), so the cost can be
 * raised and old hashes still verify; one below today's cost is replaced at its next
 * successful use (verifyAndUpgrade).
 *
 * N = 2^15, r = 8, p = 3 is one of the equivalent settings of OWASP's Password Storage
 * Cheat Sheet (as is N = 2^17, r = 8, p = 1). Both cost about the same CPU; p = 3 needs
 * 32 MiB per hash where 2^17 needs 128 MiB, and up to four hashes run at once on libuv's
 * thread pool: 128 MiB at most instead of 512 MiB (ADR 0075).
 */
const cost = { log2N: 15, r: 8, p: 3 };
const keyLength = 32;
const saltLength = 16;

/**
 * What a stored hash may ask for before it is refused unread: a hash in the database must
 * not be a way to make the server spend seconds or gigabytes on one sign-in.
 */
const ceiling = {
  /** 128·N·r bytes: twice OWASP's largest setting. */
  memoryBytes: 256 * 1024 * 1024,
  /** N·r·p, the CPU: four times today's. */
  work: 4 * 2 ** cost.log2N * cost.r * cost.p,
};

interface Parameters {
  log2N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

const memoryOf = (log2N: number, r: number) => 128 * 2 ** log2N * r;
const workOf = (log2N: number, r: number, p: number) => 2 ** log2N * r * p;

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  // scrypt needs 128·N·r bytes (and 128·r·p more); Node's default ceiling (32 MiB) leaves no room.
  const options: ScryptOptions = { N: 2 ** log2N, r, p, maxmem: 2 * memoryOf(log2N, r) };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, keyLength, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** The parts of a stored hash, or undefined for anything malformed, foreign or too costly to try. */
function parse(stored: string): Parameters | undefined {
  const match = /^scrypt\$(\d{1,2})\$(\d{1,3})\$(\d{1,3})\$([\w-]{11,88})\$([\w-]{43})$/.exec(stored);
  if (!match) return undefined;
  const [log2N, r, p] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  if (log2N < 1 || r < 1 || p < 1) return undefined;
  if (memoryOf(log2N, r) > ceiling.memoryBytes || workOf(log2N, r, p) > ceiling.work) return undefined;
  const hash = Buffer.from(match[5] as string, "base64url");
  if (hash.length !== keyLength) return undefined;
  return { log2N, r, p, salt: Buffer.from(match[4] as string, "base64url"), hash };
}

/** Below today's cost in either CPU or memory: what a hash made with older settings is. */
function belowCost({ log2N, r, p, salt }: Parameters): boolean {
  return (
    workOf(log2N, r, p) < workOf(cost.log2N, cost.r, cost.p) ||
    memoryOf(log2N, r) < memoryOf(cost.log2N, cost.r) ||
    salt.length < saltLength
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(saltLength);
  const key = await derive(password, salt, cost.log2N, cost.r, cost.p);
  return ["scrypt", cost.log2N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join(
    "$",
  );
}

export type PasswordCheck = { matches: false } | { matches: true; needsRehash: boolean };

/**
 * Whether the password matches a stored hash, and if so whether that hash is below
 * today's cost. A malformed hash, or one that asks for more than the ceiling, never matches.
 */
export async function checkPassword(password: string, stored: string): Promise<PasswordCheck> {
  const parameters = parse(stored);
  if (!parameters) return { matches: false };
  const { log2N, r, p, salt, hash } = parameters;
  const key = await derive(password, salt, log2N, r, p);
  if (!timingSafeEqual(key, hash)) return { matches: false };
  return { matches: true, needsRehash: belowCost(parameters) };
}

/** Whether the password matches a stored hash; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  return (await checkPassword(password, stored)).matches;
}

/**
 * For signing in: whether the password matches, and when it does with a hash below
 * today's cost, a new hash made now and handed to `store` (the repository's
 * replacePasswordHash) before answering. A wrong password never leads to a new hash.
 */
export async function verifyAndUpgrade(
  password: string,
  stored: string,
  store: (newHash: string) => Promise<unknown>,
): Promise<boolean> {
  const check = await checkPassword(password, stored);
  if (check.matches && check.needsRehash) await store(await hashPassword(password));
  return check.matches;
}
