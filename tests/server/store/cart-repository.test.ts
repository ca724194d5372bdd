import { describe, expect, it } from "vitest";
import { cartRepository } from "../../../server/store/cart-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

const book = { productId: "exclusive-photobook", orientation: "landscape", sizeId: "30x21" };
const canvas = { productId: "canvas", orientation: "square", sizeId: "50x50" };
const address = {
  name: "Anna",
  street: "Dorpsstraat 1",
  postcode: "1234 AB",
  city: "Utrecht",
  country: "NL" as const,
  email: "anna@example.nl",
};

describe.each(testDatabases())("the cart repository on $name", (target) => {
  const open = databasePerTest(target);

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

  it("keeps lines in the order they were added, also when they arrive within one millisecond", async () => {
    const carts = cartRepository((await open()).db);
    const id = await carts.create();
    const poster = { productId: "poster", orientation: "portrait", sizeId: "30x40" };
    // Reverse alphabetical: a tie on the moment would put them the other way round.
    for (const item of [poster, book, canvas]) await carts.add(id, item, 1);
    await carts.add(id, poster, 1);
    expect((await carts.lines(id)).map((l) => [l.productId, l.quantity])).toEqual([
      ["poster", 2],
      ["exclusive-photobook", 1],
      ["canvas", 1],
    ]);
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

  it("refuses an add that would take a line over its limit, and changes nothing", async () => {
    const carts = cartRepository((await open()).db);
    const id = await carts.create();
    expect(await carts.add(id, book, 60, 99)).toBe(true);
    expect(await carts.add(id, book, 40, 99)).toBe(false);
    expect(await carts.add(id, book, 39, 99)).toBe(true);
    expect(await carts.itemCount(id)).toBe(99);
  });

  it("sets a line's quantity and removes a line, saying whether the line was there", async () => {
    const carts = cartRepository((await open()).db);
    const id = await carts.create();
    await carts.add(id, book, 1);
    await carts.add(id, canvas, 1);
    expect(await carts.setQuantity(id, book, 7)).toBe(true);
    expect(await carts.setQuantity(id, { ...book, sizeId: "40x30" }, 7)).toBe(false);
    expect(await carts.remove(id, canvas)).toBe(true);
    expect(await carts.remove(id, canvas)).toBe(false);
    expect(await carts.lines(id)).toEqual([{ ...book, quantity: 7 }]);
    expect(await carts.setQuantity("no-such-cart-000000000", book, 7)).toBe(false);
    expect(await carts.remove("no-such-cart-000000000", book)).toBe(false);
  });

  it("saves a delivery address on the cart and replaces it when it is saved again", async () => {
    const carts = cartRepository((await open()).db);
    const id = await carts.create();
    expect(await carts.address(id)).toBeUndefined();
    await carts.saveAddress(id, address);
    expect(await carts.address(id)).toEqual(address);
    await carts.saveAddress(id, { ...address, country: "DE", postcode: "10115", phone: "030 1234567" });
    expect(await carts.address(id)).toEqual({
      ...address,
      country: "DE",
      postcode: "10115",
      phone: "030 1234567",
    });
  });

  it("marks the cart as changed on every change, so an active cart is never cleaned up", async () => {
    const database = await open();
    const carts = cartRepository(database.db);
    const id = await carts.create();
    const updatedAt = async () =>
      (
        await database.db
          .selectFrom("carts")
          .select("updated_at")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).updated_at;
    const old = "2020-01-01T00:00:00.000Z";
    const age = () =>
      database.db.updateTable("carts").set({ updated_at: old }).where("id", "=", id).execute();
    for (const change of [
      () => carts.add(id, book, 1),
      () => carts.setQuantity(id, book, 2),
      () => carts.saveAddress(id, { ...address }),
      () => carts.remove(id, book),
    ]) {
      await age();
      await change();
      expect(await updatedAt()).not.toBe(old);
    }
  });

  it("deletes carts untouched since the cut-off with their lines and address, and keeps the others", async () => {
    const database = await open();
    const carts = cartRepository(database.db);
    const abandoned = await carts.create();
    await carts.add(abandoned, book, 1);
    await carts.saveAddress(abandoned, address);
    const active = await carts.create();
    await carts.add(active, canvas, 2);
    await database.db
      .updateTable("carts")
      .set({ updated_at: "2020-01-01T00:00:00.000Z" })
      .where("id", "=", abandoned)
      .execute();

    expect(await carts.deleteAbandoned(new Date("2021-01-01T00:00:00Z"))).toBe(1);
    expect(await carts.exists(abandoned)).toBe(false);
    const left = (table: "cart_lines" | "cart_addresses") =>
      database.db.selectFrom(table).select("cart_id").where("cart_id", "=", abandoned).execute();
    expect(await left("cart_lines")).toEqual([]);
    expect(await left("cart_addresses")).toEqual([]);
    expect(await carts.lines(active)).toEqual([{ ...canvas, quantity: 2 }]);
    // A second run, here or on another instance at the same moment, finds nothing more to do.
    expect(
      await Promise.all([1, 2].map(() => carts.deleteAbandoned(new Date("2021-01-01T00:00:00Z")))),
    ).toEqual([0, 0]);
  });

  it("migrates a second time without changes", async () => {
    const database = await open();
    const { migrateToLatest } = await import("../../../server/store/migrate.ts");
    expect(await migrateToLatest(database)).toEqual([]);
  });
});
