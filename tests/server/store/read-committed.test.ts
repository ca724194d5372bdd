import { describe, expect, it } from "vitest";
import { cartRepository } from "../../../server/store/cart-repository.ts";
import { databasePerTest, testDatabases, transactionHeldOpen } from "../../support/databases.ts";

/**
 * The reads of every page view (a cart's revision, the header's count) go through
 * readCommitted: on a SQLite file a connection of its own, kept to reads. What they see must
 * be exactly what has been committed, whichever connection wrote it.
 */
describe.each(testDatabases({ sqliteFile: true }))("reads of committed data on $name", (target) => {
  const open = databasePerTest(target);

  it("see a change once it is committed, and not while its transaction is open", async () => {
    const database = await open();
    const carts = cartRepository(database.db, database);
    const cart = await carts.create();
    const canvas = { productId: "canvas", orientation: "square", sizeId: "50x50" };
    const before = await carts.revision(cart);

    const pending = await transactionHeldOpen(database.db, (trx) =>
      trx
        .insertInto("cart_lines")
        .values({
          cart_id: cart,
          product_id: canvas.productId,
          orientation: canvas.orientation,
          size_id: canvas.sizeId,
          quantity: 3,
          added_at: new Date().toISOString(),
        })
        .execute(),
    );
    expect(await carts.revision(cart)).toBe(before);
    expect(await carts.itemCount(cart)).toBe(0);
    await pending.commit();
    expect(await carts.revision(cart)).toBeGreaterThan(before as number);
    expect(await carts.itemCount(cart)).toBe(3);
  });

  it("answer nothing for a cart that is not there", async () => {
    const database = await open();
    const carts = cartRepository(database.db, database);
    expect(await carts.revision("no-such-cart-000000000")).toBeUndefined();
    expect(await carts.itemCount("no-such-cart-000000000")).toBe(0);
  });
});
