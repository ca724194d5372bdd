import type { Kysely, Migration } from "kysely";

/**
 * What is left of the events browsers sent once their raw rows are past the retention
 * window (server/jobs/clean-up.ts): one count per UTC day, event, page, language and
 * product ("" where the event names none; a key column cannot be null on PostgreSQL).
 * Other properties (positions, option values, quantities) are not kept.
 */
export const analyticsEventsDaily: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("analytics_events_daily")
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("route_id", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("product_id", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("count", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("analytics_events_daily_key", [
        "day",
        "event",
        "route_id",
        "locale",
        "product_id",
      ])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("analytics_events_daily").execute();
  },
};
