import type { Redis } from "ioredis";

/** One attempt counted: how many the key holds in its window now, this one included. */
export interface CountedAttempt {
  count: number;
  /** Until the window ends and the count starts again from nothing; at least 1. */
  secondsLeft: number;
}

/**
 * Counters of attempts within a window that starts at a key's first attempt, for limits
 * whose count must be raised before the work it guards (a password check) and may be
 * lowered again afterwards. Raising and reading are one step, so parallel attempts each see
 * a count of their own: in Redis one script (INCR, and PEXPIRE on the first), in memory one
 * synchronous update.
 */
export interface AttemptCounters {
  add(key: string, windowMs: number): Promise<CountedAttempt>;
  /** Gives one attempt back: it was not what the count is meant to hold. */
  takeBack(key: string): Promise<void>;
  /** Starts the key's count again from nothing. */
  forget(key: string): Promise<void>;
}

const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Expired keys are swept out after this many attempts, so a stream of new keys cannot fill memory. */
const sweepEvery = 1_000;

/** In this process's memory, on the shop's clock (tests move the window by moving the clock). */
export function memoryAttemptCounters(now: () => Date): AttemptCounters {
  const counts = new Map<string, { count: number; endsAt: number }>();
  let sinceSweep = 0;
  const sweep = (at: number) => {
    for (const [key, held] of counts) if (held.endsAt <= at) counts.delete(key);
  };
  // No await in these: a read and its write are never split by another request's.
  return {
    async add(key, windowMs) {
      const at = now().getTime();
      if (++sinceSweep >= sweepEvery) {
        sinceSweep = 0;
        sweep(at);
      }
      let held = counts.get(key);
      if (!held || held.endsAt <= at) {
        held = { count: 0, endsAt: at + windowMs };
        counts.set(key, held);
      }
      held.count += 1;
      return { count: held.count, secondsLeft: secondsOf(held.endsAt - at) };
    },
    async takeBack(key) {
      const held = counts.get(key);
      if (!held) return;
      held.count -= 1;
      if (held.count <= 0) counts.delete(key);
    },
    async forget(key) {
      counts.delete(key);
    },
  };
}

/** INCR, a window from the first attempt (PEXPIRE), and what is left of it (PTTL), in one step. */
const addScript = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
`;

/** DECR, and the key gone at nothing (a DECR on a key that just expired would leave -1 without an end). */
const takeBackScript = `
local count = redis.call('DECR', KEYS[1])
if count <= 0 then redis.call('DEL', KEYS[1]) end
return count
`;

/**
 * In Redis, so every instance counts together. A Redis that does not answer counts nothing
 * (the attempt goes through), as the rate limits do (ADR 0072); `watch` hears of it.
 */
export function redisAttemptCounters(
  client: Redis,
  nameSpace: string,
  watch: { failed(err: unknown): void; answered(): void },
): AttemptCounters {
  const run = async <T>(command: () => Promise<T>, otherwise: T): Promise<T> => {
    try {
      const result = await command();
      watch.answered();
      return result;
    } catch (err) {
      watch.failed(err);
      return otherwise;
    }
  };
  return {
    add: (key, windowMs) =>
      run(
        async () => {
          const [count, left] = (await client.eval(addScript, 1, `${nameSpace}${key}`, windowMs)) as [
            number,
            number,
          ];
          return { count, secondsLeft: secondsOf(left) };
        },
        { count: 0, secondsLeft: 1 },
      ),
    takeBack: (key) =>
      run(async () => {
        await client.eval(takeBackScript, 1, `${nameSpace}${key}`);
      }, undefined),
    forget: (key) =>
      run(async () => {
        await client.del(`${nameSpace}${key}`);
      }, undefined),
  };
}
