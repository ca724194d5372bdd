import type { Kysely, Migration } from "kysely";

/**
 * What a photo subscription took off an order (ADR 0104), stored with the order so its
 * page, its mail and the count of the month's free prints read what was charged.
 *
 * - free_prints, free_prints_cents: how many 10 × 15 prints were free, and their price;
 * - photo_book_discount, photo_book_discount_cents: the plan's percentage off photo books
 *   and the amount it took off;
 * - subscription_id, subscription_period: the subscription whose prints they were and the
 *   first day of the paid period they belong to. The prints left in a period are the
 *   plan's number less the free prints of that period's orders that did not expire unpaid,
 *   so an expired order gives them back and a new period starts from the full number.
 */
export const orderSubscriberBenefits: Migration = {
  async up(db: Kysely<unknown>) {
    const columns: [string, "integer" | "text"][] = [
      ["free_prints", "integer"],
      ["free_prints_cents", "integer"],
      ["photo_book_discount", "integer"],
      ["photo_book_discount_cents", "integer"],
    ];
    // SQLite adds one column per statement.
    for (const [name, type] of columns)
      await db.schema
        .alterTable("orders")
        .addColumn(name, type, (c) => c.notNull().defaultTo(0))
        .execute();
    // No reference: the books keep the order when a subscription row goes.
    await db.schema.alterTable("orders").addColumn("subscription_id", "text").execute();
    await db.schema.alterTable("orders").addColumn("subscription_period", "text").execute();
    await db.schema
      .createIndex("orders_subscription_period")
      .on("orders")
      .columns(["subscription_id", "subscription_period"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex("orders_subscription_period").execute();
    for (const column of [
      "subscription_period",
      "subscription_id",
      "photo_book_discount_cents",
      "photo_book_discount",
      "free_prints_cents",
      "free_prints",
    ])
      await db.schema.alterTable("orders").dropColumn(column).execute();
  },
};
