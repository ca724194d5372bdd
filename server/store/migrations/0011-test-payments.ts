import type { Kysely, Migration } from "kysely";

/**
 * The built-in test provider's payments (server/payments/test-provider.ts). They live in
 * the shop's database, not in a process's memory, so every instance of the shop sees the
 * payment another instance created and settles it. Amounts in cents; metadata as JSON text.
 */
export const testPayments: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("test_payments")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("amount_cents", "integer", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("redirect_url", "text", (c) => c.notNull())
      .addColumn("webhook_url", "text", (c) => c.notNull())
      .addColumn("metadata", "text", (c) => c.notNull())
      // The method the shopper chose in the shop, if any; the test page shows it.
      .addColumn("method", "text")
      .addColumn("status", "text", (c) => c.notNull())
      // The same key gives the same payment back, as a provider's Idempotency-Key does.
      .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("test_payments").execute();
  },
};
