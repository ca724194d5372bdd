import { type Kysely, type Migration, sql } from "kysely";

/**
 * The country a subscriber lives in, asked at sign-up (ADR 0110): the fee is an electronic
 * service, taxed where its customer lives, so its VAT follows this country and not the
 * language of the sign-up. A sign-up for a subscription waiting for its link carries it too
 * (null for an account alone).
 *
 * Rows from before take the country of their language, which is what their VAT followed
 * until now, so no invoice already sent changes its rate.
 */
export const subscriptionCountry: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("subscriptions")
      .addColumn("country", "text", (c) => c.notNull().defaultTo("NL"))
      .execute();
    await sql`update subscriptions set country = 'DE' where locale = 'de'`.execute(db);
    await db.schema.alterTable("signups").addColumn("country", "text").execute();
    await sql`update signups set country = case when locale = 'de' then 'DE' else 'NL' end where plan_id is not null`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable("signups").dropColumn("country").execute();
    await db.schema.alterTable("subscriptions").dropColumn("country").execute();
  },
};
