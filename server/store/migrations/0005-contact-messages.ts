import { type Kysely, type Migration, PostgresAdapter } from "kysely";

/**
 * Questions sent through the contact form. A message is stored before anything else
 * happens, in the same transaction as its two outbox mails (the shopper's copy and the
 * one to customer service), so an accepted question is never lost and never unanswered.
 * No IP address or browser details: only what the shopper typed.
 */
export const contactMessages: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("contact_messages")
      .addColumn("id", isPostgres ? "bigserial" : "integer", (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("order_number", "text")
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("question", "text", (c) => c.notNull())
      .addColumn("received_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("contact_messages_received")
      .on("contact_messages")
      .column("received_at")
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("contact_messages").execute();
  },
};
