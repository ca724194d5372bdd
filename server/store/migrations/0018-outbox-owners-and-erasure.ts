import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

/**
 * Whose a mail is, and when its content was erased. A mail of an account's life carries
 * the account's id, a mail about an order the order's id: deleting the account erases
 * them at once, even those sent to an address the account no longer has. Plain columns,
 * no foreign keys: the account is deleted right after its mails are erased, and an
 * order's row stays (for the books) after its mails' content is gone.
 * erased_at is set when a mail's subject, addresses and text were cleared, by the
 * clean-up job (MAIL_BODY_DAYS after it was sent) or by deleting its account; the row
 * stays as the record that a mail of that kind went out (or never did), and the sender
 * never sends an erased mail.
 */
export const outboxOwnersAndErasure: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema.alterTable("outbox").addColumn("account_id", "text").execute();
    await db.schema
      .alterTable("outbox")
      .addColumn("order_id", isPostgres ? "bigint" : "integer")
      .execute();
    await db.schema.alterTable("outbox").addColumn("erased_at", "text").execute();
    await db.schema.createIndex("outbox_account").on("outbox").column("account_id").execute();
    await db.schema.createIndex("outbox_order").on("outbox").column("order_id").execute();
    // Mails to an account's address without its id (the sign-up link), found when it is deleted.
    await db.schema.createIndex("outbox_recipient").on("outbox").expression(sql`lower(to_address)`).execute();
    // The clean-up job's question: sent mails not yet erased, oldest first.
    await db.schema.createIndex("outbox_unerased").on("outbox").columns(["erased_at", "sent_at"]).execute();
  },
  async down(db: Kysely<unknown>) {
    for (const index of ["outbox_unerased", "outbox_recipient", "outbox_order"]) {
      await db.schema.dropIndex(index).execute();
    }
    await db.schema.dropIndex("outbox_account").execute();
    for (const column of ["erased_at", "order_id", "account_id"]) {
      await db.schema.alterTable("outbox").dropColumn(column).execute();
    }
  },
};
