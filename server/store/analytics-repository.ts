import { type Kysely, sql } from "kysely";
import { type FunnelStep, funnelSteps } from "../domain/analytics-catalogue.ts";
import type { AnalyticsBatch } from "../domain/analytics-event.ts";
import type { Schema } from "./schema.ts";

export interface EventCount {
  day: string;
  event: string;
  count: number;
}

/** A counter the server keeps: how often something happened on one UTC day, per language and product. */
export interface DailyCount {
  day: string;
  event: FunnelStep;
  locale: string;
  /** "" where no product applies */
  productId: string;
  count: number;
}

/** One day of the funnel: how many of each step, in funnelSteps order. */
export interface FunnelDay {
  day: string;
  steps: Array<{ event: FunnelStep; count: number }>;
}

export interface AnalyticsRepository {
  record(batch: AnalyticsBatch, receivedAt?: Date): Promise<void>;
  /** The most frequent events per day, newest day first: raw rows and, for older days, their daily counts. */
  topEventsPerDay(options?: { days?: number; perDay?: number; now?: Date }): Promise<EventCount[]>;
  /** Adds to the daily counters; rows of another instance for the same key add up. */
  addDailyCounts(counts: readonly DailyCount[]): Promise<void>;
  /** The funnel per day from the daily counters, newest day first; days without any count are left out. */
  funnelPerDay(options?: { days?: number; now?: Date }): Promise<FunnelDay[]>;
}

/** The first UTC day of a window of `days` days ending with the day of `now`. */
const firstDay = (now: Date, days: number) =>
  new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);

export function analyticsRepository(db: Kysely<Schema>): AnalyticsRepository {
  return {
    async record(batch, receivedAt = new Date()) {
      if (batch.events.length === 0) return;
      const at = receivedAt.toISOString();
      await db
        .insertInto("analytics_events")
        .values(
          batch.events.map((e) => ({
            event: e.event,
            route_id: batch.route,
            locale: batch.locale,
            properties: JSON.stringify(e.properties),
            received_at: at,
          })),
        )
        .execute();
    },

    async topEventsPerDay({ days = 7, perDay = 10, now = new Date() } = {}) {
      const since = firstDay(now, days);
      // ISO text timestamps: the first ten characters are the UTC day on both databases.
      const raw = await db
        .selectFrom("analytics_events")
        .select((eb) => [
          eb.fn<string>("substr", ["received_at", eb.val(1), eb.val(10)]).as("day"),
          "event",
          eb.fn.countAll<string | number>().as("count"),
        ])
        .where("received_at", ">=", since)
        .groupBy(["day", "event"])
        .execute();
      // Rows past the raw window live on as daily counts (the clean-up job folds them); an
      // event is in one table or the other, never both, so the two add up.
      const folded = await db
        .selectFrom("analytics_events_daily")
        .select((eb) => ["day", "event", eb.fn.sum<string | number>("count").as("count")])
        .where("day", ">=", since)
        .groupBy(["day", "event"])
        .execute();
      const byDay = new Map<string, Map<string, number>>();
      for (const row of [...raw, ...folded]) {
        const counts = byDay.get(row.day) ?? new Map<string, number>();
        counts.set(row.event, (counts.get(row.event) ?? 0) + Number(row.count));
        byDay.set(row.day, counts);
      }
      return [...byDay.keys()]
        .sort()
        .reverse()
        .flatMap((day) =>
          [...(byDay.get(day) ?? [])]
            .map(([event, count]): EventCount => ({ day, event, count }))
            .sort((a, b) => b.count - a.count || a.event.localeCompare(b.event))
            .slice(0, perDay),
        );
    },

    async addDailyCounts(counts) {
      if (counts.length === 0) return;
      await db
        .insertInto("analytics_daily")
        .values(
          counts.map((c) => ({
            day: c.day,
            event: c.event,
            locale: c.locale,
            product_id: c.productId,
            count: c.count,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(["day", "event", "locale", "product_id"])
            .doUpdateSet({ count: sql`analytics_daily.count + excluded.count` }),
        )
        .execute();
    },

    async funnelPerDay({ days = 7, now = new Date() } = {}) {
      const rows = await db
        .selectFrom("analytics_daily")
        .select((eb) => ["day", "event", eb.fn.sum<string | number>("count").as("count")])
        .where("day", ">=", firstDay(now, days))
        .where("event", "in", [...funnelSteps])
        .groupBy(["day", "event"])
        .execute();
      const byDay = new Map<string, Map<string, number>>();
      for (const row of rows) {
        const counts = byDay.get(row.day) ?? new Map<string, number>();
        counts.set(row.event, Number(row.count));
        byDay.set(row.day, counts);
      }
      return [...byDay.keys()]
        .sort()
        .reverse()
        .map((day) => ({
          day,
          steps: funnelSteps.map((event) => ({ event, count: byDay.get(day)?.get(event) ?? 0 })),
        }));
    },
  };
}
