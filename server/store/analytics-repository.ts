import type { Kysely } from "kysely";
import type { AnalyticsBatch } from "../domain/analytics-event.ts";
import type { Schema } from "./schema.ts";

export interface EventCount {
  day: string;
  event: string;
  count: number;
}

export interface AnalyticsRepository {
  record(batch: AnalyticsBatch, receivedAt?: Date): Promise<void>;
  /** The most frequent events per day, newest day first. */
  topEventsPerDay(options?: { days?: number; perDay?: number; now?: Date }): Promise<EventCount[]>;
}

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
      const since = new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
      // ISO text timestamps: the first ten characters are the UTC day on both databases.
      const rows = await db
        .selectFrom("analytics_events")
        .select((eb) => [
          eb.fn<string>("substr", ["received_at", eb.val(1), eb.val(10)]).as("day"),
          "event",
          eb.fn.countAll<string | number>().as("count"),
        ])
        .where("received_at", ">=", since)
        .groupBy(["day", "event"])
        .execute();
      const byDay = new Map<string, EventCount[]>();
      for (const row of rows) {
        const list = byDay.get(row.day) ?? [];
        list.push({ day: row.day, event: row.event, count: Number(row.count) });
        byDay.set(row.day, list);
      }
      return [...byDay.keys()]
        .sort()
        .reverse()
        .flatMap((day) =>
          (byDay.get(day) ?? [])
            .sort((a, b) => b.count - a.count || a.event.localeCompare(b.event))
            .slice(0, perDay),
        );
    },
  };
}
