import { type Kysely, type Migration, PostgresAdapter } from "kysely";

/**
 * A subscription that renews itself (ADR 0099): the first payment creates a mandate at the
 * provider, and each next period is a charge on it that the renewal job makes.
 *
 * - subscriptions: the provider's customer and mandate, the paid period's first day, the day
 *   the first period began (the withdrawal window counts from it) and, once notice is given,
 *   the last day it runs.
 * - subscription_charges: each attempt to charge a period. The row is claimed (inserted)
 *   before the provider is asked, under a unique (subscription, period, attempt), so a
 *   renewal run twice, or by two instances at once, charges a period's attempt once; the
 *   provider's idempotency key is made of the same three.
 * - test_customers, test_mandates, test_refunds and three columns on test_payments: the
 *   built-in test provider's customers, mandates and refunds, kept in the shop's database
 *   for the same reason as its payments (0011).
 */
export const recurringSubscriptions: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

    await db.schema.alterTable("subscriptions").addColumn("customer_id", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("mandate_id", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("paid_from", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("started_on", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("ends_on", "text").execute();

    await db.schema
      .createTable("subscription_charges")
      .addColumn("id", isPostgres ? "bigserial" : "integer", (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("subscription_id", "text", (c) =>
        c.notNull().references("subscriptions.id").onDelete("cascade"),
      )
      // The period this charge pays for, days on the shop's calendar (YYYY-MM-DD).
      .addColumn("period_start", "text", (c) => c.notNull())
      .addColumn("period_end", "text", (c) => c.notNull())
      // 1 for the charge on the period's first day, 2 and 3 for the retries.
      .addColumn("attempt", "integer", (c) => c.notNull())
      .addColumn("due_on", "text", (c) => c.notNull())
      .addColumn("amount_cents", "integer", (c) => c.notNull())
      // "mandate": charged without the shopper; "by_hand": paid on the provider's page from the mail's link.
      .addColumn("method", "text", (c) => c.notNull())
      // null until the provider created the payment; a claimed row without one is asked again.
      .addColumn("payment_id", "text", (c) => c.unique())
      .addColumn("provider", "text", (c) => c.notNull())
      // "claimed" until the provider answered, then the provider's status.
      .addColumn("status", "text", (c) => c.notNull())
      // Where the shopper pays (by hand) or the tester decides (the test provider's page).
      .addColumn("page_url", "text")
      // Set in the transaction that queued the failed-charge mail: one mail per charge.
      .addColumn("failure_mailed_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addUniqueConstraint("subscription_charges_attempt", ["subscription_id", "period_start", "attempt"])
      .execute();

    await db.schema.alterTable("test_payments").addColumn("customer_id", "text").execute();
    await db.schema.alterTable("test_payments").addColumn("mandate_id", "text").execute();
    await db.schema
      .alterTable("test_payments")
      .addColumn("sequence_type", "text", (c) => c.notNull().defaultTo("oneoff"))
      .execute();
    await db.schema
      .createTable("test_customers")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("test_mandates")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("customer_id", "text", (c) => c.notNull())
      // "valid" or "revoked", as Mollie names them.
      .addColumn("status", "text", (c) => c.notNull())
      // The first payment that created it: one mandate per first payment.
      .addColumn("payment_id", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("test_refunds")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("payment_id", "text", (c) => c.notNull())
      .addColumn("amount_cents", "integer", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull())
      .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("test_refunds").execute();
    await db.schema.dropTable("test_mandates").execute();
    await db.schema.dropTable("test_customers").execute();
    await db.schema.alterTable("test_payments").dropColumn("sequence_type").execute();
    await db.schema.alterTable("test_payments").dropColumn("mandate_id").execute();
    await db.schema.alterTable("test_payments").dropColumn("customer_id").execute();
    await db.schema.dropTable("subscription_charges").execute();
    for (const column of ["ends_on", "started_on", "paid_from", "mandate_id", "customer_id"]) {
      await db.schema.alterTable("subscriptions").dropColumn(column).execute();
    }
  },
};
