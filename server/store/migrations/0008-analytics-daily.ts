import type { Kysely, Migration } from "kysely";

/**
 * Daily counters the server keeps itself (the funnel): one row per day, event, language
 * and product ("" where no product applies: a key column cannot be null on PostgreSQL).
 * Each instance adds its counts with an upsert, so several instances add up.
 */
export const analyticsDaily: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("analytics_daily")
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("product_id", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("count", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("analytics_daily_key", ["day", "event", "locale", "product_id"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("analytics_daily").execute();
  },
};
