import { type Kysely, type Migration, PostgresAdapter } from "kysely";

/**
 * Paying a failed period by hand from the mail's link (ADR 0106).
 *
 * - subscription_charges.pay_link_hash: sha256 of the token in the link that the charge's
 *   failed (or suspended) mail carries; the link opens the page that pays that charge's period.
 * - by_hand_payments: each payment the subscriber started on that page, numbered per period
 *   (the provider's idempotency key is the subscription, the period and that number), so a
 *   double click or a reload starts one payment, and a failed one can be tried again. It is
 *   a first payment on the subscription's provider customer: paid, it also gives a new mandate.
 */
export const subscriptionPaymentsByHand: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    // SQLite adds no UNIQUE column: the index makes it one.
    await db.schema.alterTable("subscription_charges").addColumn("pay_link_hash", "text").execute();
    await db.schema
      .createIndex("subscription_charges_pay_link")
      .unique()
      .on("subscription_charges")
      .column("pay_link_hash")
      .execute();
    await db.schema
      .createTable("by_hand_payments")
      .addColumn("id", isPostgres ? "bigserial" : "integer", (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("subscription_id", "text", (c) =>
        c.notNull().references("subscriptions.id").onDelete("cascade"),
      )
      // The failed charge whose mail's link it was started from.
      .addColumn("charge_id", "integer", (c) =>
        c.notNull().references("subscription_charges.id").onDelete("cascade"),
      )
      .addColumn("period_start", "text", (c) => c.notNull())
      .addColumn("period_end", "text", (c) => c.notNull())
      .addColumn("attempt", "integer", (c) => c.notNull())
      .addColumn("amount_cents", "integer", (c) => c.notNull())
      .addColumn("payment_id", "text", (c) => c.notNull().unique())
      .addColumn("provider", "text", (c) => c.notNull())
      // The provider's status, written once the shop applied it.
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("checkout_url", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addUniqueConstraint("by_hand_payments_attempt", ["subscription_id", "period_start", "attempt"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("by_hand_payments").execute();
    await db.schema.dropIndex("subscription_charges_pay_link").execute();
    await db.schema.alterTable("subscription_charges").dropColumn("pay_link_hash").execute();
  },
};
