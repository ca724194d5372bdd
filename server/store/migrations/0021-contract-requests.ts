import { type Kysely, type Migration, sql } from "kysely";

/**
 * Cancellations and withdrawals sent with the public forms (ADR 0103), one row per press of
 * "Jetzt kündigen" or "Widerruf bestätigen", whether or not the address has a subscription:
 * what was received and when is the shop's record of the declaration.
 *
 * - received_at: the moment of the button, the date and time of receipt (§ 312k BGB); the
 *   link in the mail proves the address later, and never moves it.
 * - token_hash: sha256 of the mailed link's token (null when no link was mailed: no running
 *   subscription for the address); confirmed_at and outcome: when the link was used and what
 *   it did, so a link used again changes nothing.
 * - subscription_id and account_id: the subscription found for the address, and its account,
 *   whose deletion takes the row with it; the clean-up job deletes the others after 30 days.
 */
export const contractRequests: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("contract_requests")
      .addColumn("id", "text", (c) => c.primaryKey())
      // "cancel" or "withdraw".
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("email_key", "text", (c) => c.notNull())
      // The subscription number typed in the form; null: "the subscription of this address".
      .addColumn("contract_ref", "text")
      // For a cancellation: "ordinary" or "extraordinary"; then the reason and the day asked for.
      .addColumn("notice", "text")
      .addColumn("reason", "text")
      .addColumn("asked_end_on", "text")
      .addColumn("received_at", "text", (c) => c.notNull())
      .addColumn("subscription_id", "text", (c) => c.references("subscriptions.id").onDelete("cascade"))
      .addColumn("account_id", "text", (c) => c.references("accounts.id").onDelete("cascade"))
      .addColumn("token_hash", "text", (c) => c.unique())
      .addColumn("confirmed_at", "text")
      .addColumn("outcome", "text")
      .execute();
    // The per-address limit counts an address's recent requests; the clean-up takes the oldest.
    await db.schema
      .createIndex("contract_requests_address")
      .on("contract_requests")
      .columns(["email_key", "received_at"])
      .execute();
    await db.schema
      .createIndex("contract_requests_received")
      .on("contract_requests")
      .column("received_at")
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table contract_requests`.execute(db);
  },
};
