import { type Kysely, type Migration, sql } from "kysely";

/**
 * A guest's order joins an account only through a link mailed to the order's own address
 * (ADR 0089): the link's token names the order it is for, so a token mailed for one order
 * can never add another. And every request from a browser with a cart or shopper cookie asks
 * whether that cart or owner id is an account's (server/http/security/account-holdings.ts):
 * indexes, so that question is one lookup.
 */
export const orderClaims: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("account_tokens")
      .addColumn("order_id", "integer", (c) => c.references("orders.id").onDelete("cascade"))
      .execute();
    await db.schema.createIndex("accounts_cart").on("accounts").column("cart_id").execute();
    await db.schema.createIndex("accounts_owner").on("accounts").column("owner_id").execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("accounts_owner").execute();
    await db.schema.dropIndex("accounts_cart").execute();
    // SQLite drops a column with a foreign key only by rebuilding the table; the plain statement does on both.
    await sql`alter table account_tokens drop column order_id`.execute(db);
  },
};
