import type { Redis } from "ioredis";

/** An amount counted: the key's total in its window now, this amount included. */
export interface CountedAmount {
  total: number;
  /** Milliseconds until the window ends and the total starts again from nothing. */
  ttlMs: number;
}

/**
 * Running totals per key within a window that starts with the key's first amount, for
 * limits that must count before the work they guard and may give some back afterwards:
 * bytes uploaded per client, password attempts (one each). Adding and reading are one
 * step, so parallel requests each see the others' share: in Redis one script (INCRBY, and
 * the window's expiry on the first), in memory one synchronous update.
 */
export interface AmountCounter {
  /**
   * Adds `amount` (negative to give some back) to the key's total. A total given back to
   * nothing or below is gone, window and all. Undefined when Redis does not answer.
   */
  add(key: string, amount: number): Promise<CountedAmount | undefined>;
  /** Starts the key's total again from nothing. */
  forget(key: string): Promise<void>;
}

/** Counters under a name of their own (one limit's), each key's window `windowMs` long. */
export type AmountCounters = (name: string, windowMs: number) => AmountCounter;

/** Ended windows are swept out after this many amounts, so a stream of new keys cannot fill memory. */
const sweepEvery = 1_000;

/**
 * In this process's memory, on the shop's clock (tests move a window by moving the clock).
 * One map for every name, as in Redis: the same name and key count together wherever asked.
 */
export function memoryAmountCounters(now: () => Date): AmountCounters {
  const totals = new Map<string, { total: number; endsAt: number }>();
  let sinceSweep = 0;
  return (name, windowMs) => ({
    // No await in here: a read and its write are never split by another request's.
    async add(key, amount) {
      const at = now().getTime();
      if (++sinceSweep >= sweepEvery) {
        sinceSweep = 0;
        for (const [k, held] of totals) if (held.endsAt <= at) totals.delete(k);
      }
      const full = `${name}:${key}`;
      let held = totals.get(full);
      if (!held || held.endsAt <= at) held = { total: 0, endsAt: at + windowMs };
      held.total += amount;
      if (held.total <= 0) {
        totals.delete(full);
        return { total: 0, ttlMs: 0 };
      }
      totals.set(full, held);
      return { total: held.total, ttlMs: held.endsAt - at };
    },
    async forget(key) {
      totals.delete(`${name}:${key}`);
    },
  });
}

/**
 * INCRBY and the window's expiry in one step; a total given back to nothing is removed (an
 * amount given back to a key that just expired would otherwise leave a negative total
 * without an end).
 */
const addScript = `
  local total = redis.call('INCRBY', KEYS[1], ARGV[1])
  if total <= 0 then
    redis.call('DEL', KEYS[1])
    return {0, 0}
  end
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    ttl = tonumber(ARGV[2])
  end
  return {total, ttl}
`;

/**
 * In Redis, so every instance counts together; in Redis's own time. A Redis that does not
 * answer counts nothing (the request goes through), as the rate limits do (ADR 0072);
 * `watch` hears of it.
 */
export function redisAmountCounters(
  client: Redis,
  nameSpace: string,
  watch: { failed(err: unknown): void; answered(): void },
): AmountCounters {
  const run = async <T>(command: () => Promise<T>): Promise<T | undefined> => {
    try {
      const result = await command();
      watch.answered();
      return result;
    } catch (err) {
      watch.failed(err);
      return undefined;
    }
  };
  return (name, windowMs) => ({
    add: (key, amount) =>
      run(async () => {
        const [total, ttlMs] = (await client.eval(
          addScript,
          1,
          `${nameSpace}${name}:${key}`,
          Math.round(amount),
          windowMs,
        )) as [number, number];
        return { total: Number(total), ttlMs: Number(ttlMs) };
      }),
    forget: async (key) => {
      await run(() => client.del(`${nameSpace}${name}:${key}`));
    },
  });
}
