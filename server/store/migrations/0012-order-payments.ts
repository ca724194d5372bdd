import { type Kysely, type Migration, PostgresAdapter } from "kysely";

/**
 * The shop's own record of each payment it started for an order (server/payments/
 * order-payments.ts): the webhook carries only a payment id, and this row says which order
 * it belongs to. It also keeps "at most one open payment per order" checkable, numbers the
 * attempts (the provider's idempotency key is derived from order and attempt), and says
 * whether the failed-payment mail for this payment went out.
 */
export const orderPayments: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("order_payments")
      .addColumn("payment_id", "text", (c) => c.primaryKey())
      .addColumn("order_id", isPostgres ? "bigint" : "integer", (c) =>
        c.notNull().references("orders.id").onDelete("cascade"),
      )
      .addColumn("provider", "text", (c) => c.notNull())
      .addColumn("attempt", "integer", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("amount_cents", "integer", (c) => c.notNull())
      // The provider's page for this payment: an open payment is offered again, not a second one.
      .addColumn("checkout_url", "text", (c) => c.notNull())
      // Set in the transaction that queues the mail: a replayed "failed" never mails twice.
      .addColumn("failure_mailed_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      // Two starts at once for one order (two tabs, two instances) cannot both be attempt n.
      .addUniqueConstraint("order_payments_attempt", ["order_id", "attempt"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("order_payments").execute();
  },
};
