import Fastify from "fastify";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type SharedCounters, sharedCounters } from "../../server/http/limits/shared-counters.ts";
import { removeKeysOfThisRun, shopRedisUrl } from "../support/redis.ts";

const minute = 60_000;
const quiet = Fastify({ logger: false }).log;

let opened: SharedCounters[] = [];
afterEach(async () => {
  for (const counters of opened) await counters.close();
  opened = [];
});
afterAll(removeKeysOfThisRun);

/** The running totals the shop makes, with REDIS_URL (a key prefix of this test's own) or without. */
async function countersIn(where: "memory" | "Redis", now: () => Date = () => new Date()) {
  const counters = await sharedCounters(where === "Redis" ? shopRedisUrl().url : undefined, quiet, now);
  opened.push(counters);
  return counters;
}

const totals = (counted: ({ total: number } | undefined)[]) => counted.map((c) => c?.total);

// The memory twin must count as the Redis script does: the same cases, both ways.
describe.each(["memory", "Redis"] as const)("running totals in %s", (where) => {
  it("add up per key within a window that starts with the key's first amount", async () => {
    const counter = (await countersIn(where)).amounts("bytes", 15 * minute);
    const first = await counter.add("a", 700);
    expect(first?.total).toBe(700);
    expect(first?.ttlMs).toBeGreaterThan(14 * minute);
    expect(first?.ttlMs).toBeLessThanOrEqual(15 * minute);
    expect((await counter.add("a", 300))?.total).toBe(1000);
    // Another key, and the same key under another name, count on their own.
    expect((await counter.add("b", 1))?.total).toBe(1);
    expect((await (await countersIn(where)).amounts("other", minute).add("a", 5))?.total).toBe(5);
  });

  it("give some back, forget a key altogether, and never go below nothing", async () => {
    const counter = (await countersIn(where)).amounts("attempts", minute);
    for (let i = 0; i < 3; i++) await counter.add("a", 1);
    expect((await counter.add("a", -1))?.total).toBe(2);
    expect((await counter.add("a", 1))?.total).toBe(3);
    await counter.forget("a");
    expect((await counter.add("a", 1))?.total).toBe(1);
    // Giving back what was never counted leaves nothing below zero.
    expect(totals([await counter.add("b", -1), await counter.add("b", -1)])).toEqual([0, 0]);
    const again = await counter.add("b", 1);
    expect(again?.total).toBe(1);
    // A total given back to nothing took its window with it: the next one starts a new window.
    expect(again?.ttlMs).toBeGreaterThan(minute / 2);
  });

  it("give each of many amounts added at once a total of its own", async () => {
    const counter = (await countersIn(where)).amounts("attempts", minute);
    const counted = await Promise.all(Array.from({ length: 40 }, () => counter.add("a", 1)));
    expect(totals(counted).sort((x = 0, y = 0) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });
});

describe("running totals in memory", () => {
  it("follow the clock given: a window ends on it, and the total starts again", async () => {
    let now = new Date("2026-12-01T10:00:00Z");
    const counter = (await countersIn("memory", () => now)).amounts("attempts", 15 * minute);
    expect(await counter.add("a", 1)).toEqual({ total: 1, ttlMs: 15 * minute });
    now = new Date(now.getTime() + 5 * minute);
    expect(await counter.add("a", 1)).toEqual({ total: 2, ttlMs: 10 * minute });
    now = new Date(now.getTime() + 10 * minute);
    expect(await counter.add("a", 1)).toEqual({ total: 1, ttlMs: 15 * minute });
  });
});
