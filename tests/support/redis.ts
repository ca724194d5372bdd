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

/**
 * A connection of its own for each look: test files share this module within a worker
 * (vitest's isolate: false), so one file closing a shared connection would leave the next
 * file's clean-up with a closed one.
 */
async function withRedis<T>(use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

async function scanKeys(redis: Redis): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", `${runPrefix}*`, "COUNT", 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== "0");
  return keys;
}

export function keysOfThisRun(): Promise<string[]> {
  return withRedis(scanKeys);
}

/** For afterAll: this run's keys gone. */
export function removeKeysOfThisRun(): Promise<void> {
  return withRedis(async (redis) => {
    const keys = await scanKeys(redis);
    if (keys.length > 0) await redis.del(...keys);
  });
}
