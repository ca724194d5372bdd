import { afterEach, describe, expect, it } from "vitest";
import { cartRepository } from "../../../server/store/cart-repository.ts";
import type { Database } from "../../../server/store/database.ts";
import { testDatabases } from "../../support/databases.ts";

const book = { productId: "exclusive-photobook", orientation: "landscape", sizeId: "30x21" };
const canvas = { productId: "canvas", orientation: "square", sizeId: "50x50" };

describe.each(testDatabases())("the cart repository on $name", (target) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  async function open(): Promise<Database> {
    const opened = await target.open();
    cleanup = opened.cleanup;
    return opened.database;
  }

  it("creates carts with unguessable ids", async () => {
    const carts = cartRepository((await open()).db);
    const a = await carts.create();
    const b = await carts.create();
    expect(a).toMatch(/^[\w-]{22}$/);
    expect(a).not.toBe(b);
    expect(await carts.exists(a)).toBe(true);
    expect(await carts.exists("nope")).toBe(false);
  });

  it("adds items, adding the same option again raises its quantity", async () => {
    const carts = cartRepository((await open()).db);
    const id = await carts.create();
    await carts.add(id, book, 1);
    await carts.add(id, canvas, 2);
    await carts.add(id, book, 3);
    expect(await carts.lines(id)).toEqual([
      { ...book, quantity: 4 },
      { ...canvas, quantity: 2 },
    ]);
    expect(await carts.itemCount(id)).toBe(6);
  });

  it("keeps carts apart", async () => {
    const carts = cartRepository((await open()).db);
    const mine = await carts.create();
    const theirs = await carts.create();
    await carts.add(theirs, book, 5);
    expect(await carts.lines(mine)).toEqual([]);
    expect(await carts.itemCount(mine)).toBe(0);
  });

  it("refuses lines for a cart that does not exist", async () => {
    const carts = cartRepository((await open()).db);
    await expect(carts.add("no-such-cart-000000000", book, 1)).rejects.toThrow();
  });

  it("loses no quantity when many adds arrive at once", async () => {
    const carts = cartRepository((await open()).db);
    const id = await carts.create();
    await Promise.all(Array.from({ length: 30 }, () => carts.add(id, book, 1)));
    expect(await carts.itemCount(id)).toBe(30);
  });

  it("migrates a second time without changes", async () => {
    const database = await open();
    const { migrateToLatest } = await import("../../../server/store/migrate.ts");
    expect(await migrateToLatest(database)).toEqual([]);
  });
});
