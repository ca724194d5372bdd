import { describe, expect, it } from "vitest";
import { memoryAttemptCounters } from "../../server/http/limits/attempt-counters.ts";

const minute = 60_000;

describe("attempt counters in memory", () => {
  it("count within a window that starts at a key's first attempt, on the clock given", async () => {
    let now = new Date("2026-12-01T10:00:00Z");
    const counters = memoryAttemptCounters(() => now);
    expect(await counters.add("a", 15 * minute)).toEqual({ count: 1, secondsLeft: 900 });
    now = new Date(now.getTime() + 5 * minute);
    expect(await counters.add("a", 15 * minute)).toEqual({ count: 2, secondsLeft: 600 });
    // Another key counts on its own.
    expect((await counters.add("b", 15 * minute)).count).toBe(1);
    now = new Date(now.getTime() + 10 * minute);
    expect(await counters.add("a", 15 * minute)).toEqual({ count: 1, secondsLeft: 900 });
  });

  it("give one back, and forget a key altogether", async () => {
    const counters = memoryAttemptCounters(() => new Date("2026-12-01T10:00:00Z"));
    for (let i = 0; i < 3; i++) await counters.add("a", minute);
    await counters.takeBack("a");
    expect((await counters.add("a", minute)).count).toBe(3);
    await counters.forget("a");
    expect((await counters.add("a", minute)).count).toBe(1);
    // Giving back what was never counted leaves nothing below zero.
    await counters.takeBack("b");
    await counters.takeBack("b");
    expect((await counters.add("b", minute)).count).toBe(1);
  });

  it("give each of many attempts made at once a count of its own", async () => {
    const counters = memoryAttemptCounters(() => new Date("2026-12-01T10:00:00Z"));
    const counted = await Promise.all(Array.from({ length: 40 }, () => counters.add("a", minute)));
    expect(counted.map((c) => c.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });
});
