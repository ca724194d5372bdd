import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

/**
 * CI sets TEST_REDIS_URL (.ci/run starts Redis when it is down). Without it the tests still
 * run, against the Redis this machine is meant to have, and fail if none answers.
 */
export const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** Every key this run makes starts with this, so parallel runs never count together. */
const runPrefix = `test-${randomBytes(6).toString("hex")}:`;

let shopsMade = 0;

/**
 * REDIS_URL for the shops of one test, with a key prefix of its own under this run's
 * (ioredis reads keyPrefix from the address): tests never see each other's counts.
 */
export function shopRedisUrl(base = redisUrl): { url: string; prefix: string } {
  const prefix = `${runPrefix}${++shopsMade}:`;
  const url = new URL(base);
  url.searchParams.set("keyPrefix", prefix);
  return { url: url.toString(), prefix };
}

const raw = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });

export async function keysOfThisRun(): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, found] = await raw.scan(cursor, "MATCH", `${runPrefix}*`, "COUNT", 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== "0");
  return keys;
}

/** For afterAll: this run's keys gone, and the connection that looked at them closed. */
export async function removeKeysOfThisRun(): Promise<void> {
  const keys = await keysOfThisRun();
  if (keys.length > 0) await raw.del(...keys);
  raw.disconnect();
}
