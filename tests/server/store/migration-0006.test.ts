import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { cartRepository } from "../../../server/store/cart-repository.ts";
import { migrateToLatest, shopMigrator } from "../../../server/store/migrate.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

/** Databases left at the migration before 0006, as a shop running today would be. */
const targets = testDatabases({ migrate: false });

describe.each(targets)("migration 0006 on $name", (target) => {
  const openDatabase = databasePerTest(target);

  it("keeps the cart lines shoppers already have, and can be taken back", async () => {
    const database = await openDatabase();
    const migrator = await shopMigrator(database);
    expect((await migrator.migrateTo("0003-outbox")).error).toBeUndefined();
    const carts = cartRepository(database.db);
    const cart = await carts.create();
    // Before 0006 the table has no project column: insert the way the old code did.
    const untyped = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await untyped
      .insertInto("cart_lines")
      .values({
        cart_id: cart,
        product_id: "canvas",
        orientation: "square",
        size_id: "50x50",
        quantity: 2,
        added_at: "2026-01-01T00:00:00Z",
      })
      .execute();

    expect(await migrateToLatest(database)).toContain("0006-photo-projects-and-subscriptions");
    expect(await carts.lines(cart)).toEqual([
      { productId: "canvas", orientation: "square", sizeId: "50x50", quantity: 2 },
    ]);
    await carts.add(cart, { productId: "canvas", orientation: "square", sizeId: "50x50" }, 1);
    expect(await carts.itemCount(cart)).toBe(3);

    // Back to before 0006, through the later migrations' own way down.
    expect((await migrator.migrateTo("0005-contact-messages")).error).toBeUndefined();
    const rows = await untyped.selectFrom("cart_lines").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).not.toHaveProperty("project_id");
    expect(Number(rows[0]?.quantity)).toBe(3);
  });
});
