import type { Kysely, Migration } from "kysely";

/**
 * The mail that says an introductory offer ends and what the next period costs, sent once
 * per subscription and period (ADR 0107): the row is written in the transaction that
 * queues the mail, and its key stops a second run (or a second instance) from sending it again.
 */
export const subscriptionPriceNotices: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("subscription_price_notices")
      .addColumn("subscription_id", "text", (c) =>
        c.notNull().references("subscriptions.id").onDelete("cascade"),
      )
      // The first day of the period charged at the new price.
      .addColumn("period_start", "text", (c) => c.notNull())
      .addColumn("amount_cents", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("subscription_price_notices_pk", ["subscription_id", "period_start"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("subscription_price_notices").execute();
  },
};
