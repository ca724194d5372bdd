import Fastify from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../server/config.ts";
import { loadCatalogue } from "../../server/domain/catalogue.ts";
import { analyticsCounters } from "../../server/http/analytics/analytics-counters.ts";
import { flushEveryMs, registerFunnelCounting } from "../../server/http/analytics/funnel-counting.ts";
import type { DailyCount } from "../../server/store/analytics-repository.ts";

const sorted = (counts: DailyCount[]) =>
  [...counts].sort((a, b) =>
    `${a.day}${a.event}${a.locale}${a.productId}`.localeCompare(
      `${b.day}${b.event}${b.locale}${b.productId}`,
    ),
  );

describe("the funnel's counters in memory", () => {
  it("add up per day, step, language and product, and write each key once per flush", async () => {
    const writes: DailyCount[][] = [];
    let now = new Date("2026-11-20T23:59:59Z");
    const counters = analyticsCounters({ write: async (c) => void writes.push(c), now: () => now });
    counters.count("funnel.product_page", "nl", "canvas");
    counters.count("funnel.product_page", "nl", "canvas");
    counters.count("funnel.product_page", "de", "canvas");
    counters.count("funnel.order_placed", "nl");
    now = new Date("2026-11-21T00:00:00Z");
    counters.count("funnel.product_page", "nl", "canvas");
    await counters.flush();
    expect(writes).toHaveLength(1);
    expect(sorted(writes[0] ?? [])).toEqual([
      { day: "2026-11-20", event: "funnel.order_placed", locale: "nl", productId: "", count: 1 },
      { day: "2026-11-20", event: "funnel.product_page", locale: "de", productId: "canvas", count: 1 },
      { day: "2026-11-20", event: "funnel.product_page", locale: "nl", productId: "canvas", count: 2 },
      { day: "2026-11-21", event: "funnel.product_page", locale: "nl", productId: "canvas", count: 1 },
    ]);
    // Nothing new: no write at all.
    await counters.flush();
    expect(writes).toHaveLength(1);
  });

  it("keep what could not be written for the next flush, added to what came meanwhile", async () => {
    const writes: DailyCount[][] = [];
    let failing = true;
    const warn = vi.fn();
    const counters = analyticsCounters({
      write: async (c) => {
        if (failing) throw new Error("database away");
        writes.push(c);
      },
      now: () => new Date("2026-11-20T10:00:00Z"),
      log: { warn } as never,
    });
    counters.count("funnel.cart_add", "nl", "canvas");
    await counters.flush();
    expect(warn).toHaveBeenCalledTimes(1);
    counters.count("funnel.cart_add", "nl", "canvas");
    failing = false;
    await counters.flush();
    expect(writes).toEqual([
      [{ day: "2026-11-20", event: "funnel.cart_add", locale: "nl", productId: "canvas", count: 2 }],
    ]);
  });

  it("write one flush at a time: a second flush waits for the first and writes what came since", async () => {
    const writes: number[] = [];
    let release: () => void = () => {};
    let first = true;
    const counters = analyticsCounters({
      write: async (c) => {
        if (first) {
          first = false;
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        }
        writes.push(c.reduce((sum, x) => sum + x.count, 0));
      },
    });
    counters.count("funnel.address", "nl");
    const one = counters.flush();
    counters.count("funnel.address", "nl");
    counters.count("funnel.address", "nl");
    const two = counters.flush();
    release();
    await Promise.all([one, two]);
    expect(writes).toEqual([1, 2]);
  });
});

describe("the funnel's flush schedule", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("flushes every ten seconds once the app is ready, and once more when it closes", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    let flushes = 0;
    const app = Fastify();
    registerFunnelCounting(
      app,
      {
        count: () => {},
        flush: async () => {
          flushes++;
        },
      },
      loadCatalogue(readConfig({ COOKIE_SECRET: "x".repeat(32) }).cataloguePath),
    );
    await app.ready();
    expect(flushes).toBe(0);
    vi.advanceTimersByTime(flushEveryMs - 1);
    expect(flushes).toBe(0);
    vi.advanceTimersByTime(1);
    expect(flushes).toBe(1);
    vi.advanceTimersByTime(flushEveryMs * 2);
    expect(flushes).toBe(3);
    await app.close();
    expect(flushes).toBe(4);
    vi.advanceTimersByTime(flushEveryMs * 3);
    expect(flushes).toBe(4);
  });
});
