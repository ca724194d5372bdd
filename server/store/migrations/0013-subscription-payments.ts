import { type Kysely, type Migration, PostgresAdapter } from "kysely";

/**
 * Paying a subscription's first period (server/domain/subscription-lifecycle.ts):
 * - `subscription_signups`: a sign-up waiting for its address to be confirmed. Only the hash
 *   of the link's token is kept; the subscription is made when the link is used, so a form
 *   never learns whether an address is known, and nobody holds an address they cannot read.
 * - `subscriptions.status` and its period: existing rows were taken out when nothing could be
 *   paid, so they wait for payment like a new one.
 * - `subscription_transitions`: every change of a subscription's status, with its time.
 * - `subscription_payments`: the shop's record of each payment it started for a subscription,
 *   as order_payments is for orders.
 */
export const subscriptionPayments: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

    await db.schema
      .createTable("subscription_signups")
      // sha256 of the link's token, hex: a leaked table opens no link.
      .addColumn("token_hash", "text", (c) => c.primaryKey())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("email_key", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("plan_id", "text", (c) => c.notNull())
      // The prices as the form showed them: the subscription is made at these.
      .addColumn("monthly_cents", "integer", (c) => c.notNull())
      .addColumn("offer_cents", "integer")
      .addColumn("offer_months", "integer")
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("owner_id", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      // Set when the link was used, with the subscription it made or found.
      .addColumn("used_at", "text")
      .addColumn("subscription_id", "text")
      .execute();
    // The clean-up job removes them by age; a flood of sign-ups for one address is counted by it.
    await db.schema
      .createIndex("subscription_signups_created")
      .on("subscription_signups")
      .column("created_at")
      .execute();

    await db.schema
      .alterTable("subscriptions")
      .addColumn("status", "text", (c) => c.notNull().defaultTo("awaiting_payment"))
      .execute();
    // The day the paid period ends (shop's calendar, YYYY-MM-DD); null until paid.
    await db.schema.alterTable("subscriptions").addColumn("paid_until", "text").execute();
    await db.schema
      .createIndex("subscriptions_status_created")
      .on("subscriptions")
      .columns(["status", "created_at"])
      .execute();

    await db.schema
      .createTable("subscription_transitions")
      .addColumn("id", isPostgres ? "bigserial" : "integer", (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("subscription_id", "text", (c) =>
        c.notNull().references("subscriptions.id").onDelete("cascade"),
      )
      .addColumn("from_status", "text", (c) => c.notNull())
      .addColumn("to_status", "text", (c) => c.notNull())
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("payment_id", "text")
      .addColumn("at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("subscription_transitions_subscription")
      .on("subscription_transitions")
      .column("subscription_id")
      .execute();

    await db.schema
      .createTable("subscription_payments")
      .addColumn("payment_id", "text", (c) => c.primaryKey())
      .addColumn("subscription_id", "text", (c) =>
        c.notNull().references("subscriptions.id").onDelete("cascade"),
      )
      .addColumn("provider", "text", (c) => c.notNull())
      .addColumn("attempt", "integer", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("amount_cents", "integer", (c) => c.notNull())
      .addColumn("checkout_url", "text", (c) => c.notNull())
      .addColumn("failure_mailed_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addUniqueConstraint("subscription_payments_attempt", ["subscription_id", "attempt"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("subscription_payments").execute();
    await db.schema.dropTable("subscription_transitions").execute();
    await db.schema.dropIndex("subscriptions_status_created").execute();
    await db.schema.alterTable("subscriptions").dropColumn("paid_until").execute();
    await db.schema.alterTable("subscriptions").dropColumn("status").execute();
    await db.schema.dropIndex("subscription_signups_created").execute();
    await db.schema.dropTable("subscription_signups").execute();
  },
};
