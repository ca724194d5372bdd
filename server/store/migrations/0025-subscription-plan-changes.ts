import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

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
 *
 * The account's subscription page shows a waiting or charging change, and works out the
 * next charge from the periods paid (subscription_charges, by_hand_payments). So every change
 * to a row of these three tables raises the revision of the subscription's account (0016),
 * by trigger as there: a kept account page stops holding however the change was made.
 */

/** Tables whose rows name a subscription in `subscription_id`, shown on its account's pages. */
const subscriptionRows = ["subscription_plan_changes", "subscription_charges", "by_hand_payments"] as const;
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

    if (isPostgres) {
      await sql`
        create function bump_subscription_account_revision() returns trigger language plpgsql as $$
        declare
          subscription text;
        begin
          if tg_op = 'DELETE' then subscription := old.subscription_id; else subscription := new.subscription_id; end if;
          insert into account_revisions (account_id, revision)
            select account_id, 1 from subscriptions where id = subscription and account_id is not null
            on conflict (account_id) do update set revision = account_revisions.revision + 1;
          return null;
        end $$`.execute(db);
      for (const table of subscriptionRows) {
        await sql`create trigger ${sql.id(`${table}_account_revision`)}
          after insert or update or delete on ${sql.table(table)}
          for each row execute function bump_subscription_account_revision()`.execute(db);
      }
      return;
    }
    for (const table of subscriptionRows) {
      for (const [op, row] of [
        ["insert", "new"],
        ["update", "new"],
        ["delete", "old"],
      ] as const) {
        // The WHERE clause also tells SQLite's grammar that ON CONFLICT is an upsert, not a join's ON.
        await sql
          .raw(
            `create trigger ${table}_account_revision_${op} after ${op} on ${table} begin
              insert into account_revisions (account_id, revision)
                select account_id, 1 from subscriptions where id = ${row}.subscription_id and account_id is not null
                on conflict (account_id) do update set revision = revision + 1;
            end`,
          )
          .execute(db);
      }
    }
  },
  async down(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const table of subscriptionRows) {
      if (isPostgres)
        await sql`drop trigger ${sql.id(`${table}_account_revision`)} on ${sql.table(table)}`.execute(db);
      else
        for (const op of ["insert", "update", "delete"])
          await sql.raw(`drop trigger ${table}_account_revision_${op}`).execute(db);
    }
    if (isPostgres) await sql`drop function bump_subscription_account_revision()`.execute(db);
    await db.schema.dropTable("subscription_plan_changes").execute();
  },
};
