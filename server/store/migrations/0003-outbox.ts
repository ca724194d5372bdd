import { type Kysely, type Migration, PostgresAdapter } from "kysely";

/**
 * Mail waiting to go out. A row is written in the same transaction as the thing it
 * reports (an order, a contact message), so nothing is promised by mail that was not
 * stored, and nothing stored goes unannounced. The sender claims rows before sending,
 * so several instances never send one mail twice.
 */
export const outbox: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("outbox")
      .addColumn("id", isPostgres ? "bigserial" : "integer", (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      // What the mail is (order-confirmation, contact-copy, …), for logs and tests.
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("to_address", "text", (c) => c.notNull())
      .addColumn("reply_to", "text")
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("text_body", "text", (c) => c.notNull())
      .addColumn("html_body", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", "text", (c) => c.notNull())
      // A sender's lease on the row: another instance takes it over only after it expires.
      .addColumn("claimed_by", "text")
      .addColumn("claimed_until", "text")
      .addColumn("sent_at", "text")
      .addColumn("last_error", "text")
      .execute();
    await db.schema
      .createIndex("outbox_pending")
      .on("outbox")
      .columns(["sent_at", "next_attempt_at"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("outbox").execute();
  },
};
