import { type Kysely, type Migration, PostgresAdapter } from "kysely";

/**
 * A running subscription's change of plan (ADR 0108), one row per change, with its time.
 *
 * - An upgrade is applied when asked for: the subscription's plan columns take the new plan,
 *   and the row keeps the old plan, so that a failed charge can put it back. Its amount is the
 *   rest of the paid period, pro rata, charged on the mandate; the provider's idempotency key
 *   is the row's id.
 * - A downgrade waits ("scheduled") for the renewal of the period it starts with, which
 *   applies it before charging that period.
 *
 * status: scheduled, applied or dropped (a downgrade); charging, paid or failed (an upgrade;
 * paid also when there was nothing to charge).
 */
export const subscriptionPlanChanges: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("subscription_plan_changes")
      .addColumn("id", isPostgres ? "bigserial" : "integer", (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("subscription_id", "text", (c) =>
        c.notNull().references("subscriptions.id").onDelete("cascade"),
      )
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("from_plan_id", "text", (c) => c.notNull())
      .addColumn("from_monthly_cents", "integer", (c) => c.notNull())
      .addColumn("from_offer_cents", "integer")
      .addColumn("from_offer_months", "integer")
      .addColumn("to_plan_id", "text", (c) => c.notNull())
      .addColumn("to_monthly_cents", "integer", (c) => c.notNull())
      .addColumn("to_offer_cents", "integer")
      .addColumn("to_offer_months", "integer")
      // The first day on the new plan, and the last day the amount pays for.
      .addColumn("starts_on", "text", (c) => c.notNull())
      .addColumn("period_end", "text", (c) => c.notNull())
      .addColumn("amount_cents", "integer", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("payment_id", "text", (c) => c.unique())
      .addColumn("payment_status", "text")
      .addColumn("test_page_url", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("subscription_plan_changes_subscription")
      .on("subscription_plan_changes")
      .columns(["subscription_id", "status"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("subscription_plan_changes").execute();
  },
};
