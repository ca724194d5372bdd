import { type Kysely, type Migration, PostgresAdapter } from "kysely";

/**
 * Every change of an order's status, with its time and what caused it
 * (server/domain/order-lifecycle.ts). `orders.status` stays the order's current status, read
 * under a lock; these rows are its history. No `status_changed_at` on orders: the latest row
 * here says when, and a second copy could disagree with it.
 */
export const orderTransitions: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("order_transitions")
      .addColumn("id", isPostgres ? "bigserial" : "integer", (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("order_id", isPostgres ? "bigint" : "integer", (c) =>
        c.notNull().references("orders.id").onDelete("cascade"),
      )
      .addColumn("from_status", "text", (c) => c.notNull())
      .addColumn("to_status", "text", (c) => c.notNull())
      .addColumn("event", "text", (c) => c.notNull())
      // The provider's payment for a payment's outcome; null for the shop's own events.
      .addColumn("payment_id", "text")
      .addColumn("at", "text", (c) => c.notNull())
      // The life has no cycles, so an order enters each status at most once: a second row
      // for one fact is a bug the database refuses, whatever the code above it does.
      .addUniqueConstraint("order_transitions_once", ["order_id", "to_status"])
      .execute();

    // The clean-up job looks for orders still awaiting payment past a cut-off.
    await db.schema
      .createIndex("orders_status_created")
      .on("orders")
      .columns(["status", "created_at"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("orders_status_created").execute();
    await db.schema.dropTable("order_transitions").execute();
  },
};
