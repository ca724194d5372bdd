import { type Kysely, type Migration, PostgresAdapter } from "kysely";

export const analyticsEvents: Migration = {
  async up(db: Kysely<unknown>) {
    // SQLite and PostgreSQL spell an auto-numbered key differently.
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("analytics_events")
      .addColumn("id", isPostgres ? "bigserial" : "integer", (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("route_id", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("properties", "text", (c) => c.notNull())
      .addColumn("received_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("analytics_events_received_event")
      .on("analytics_events")
      .columns(["received_at", "event"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("analytics_events").execute();
  },
};
