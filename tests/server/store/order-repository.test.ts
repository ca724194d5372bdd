import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { OutgoingMail } from "../../../server/mail/outbox.ts";
import { cartRepository } from "../../../server/store/cart-repository.ts";
import type { Database } from "../../../server/store/database.ts";
import {
  type OrderDraft,
  orderRepository,
  type PrepareOrder,
} from "../../../server/store/order-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

const book = { productId: "exclusive-photobook", orientation: "portrait", sizeId: "21x30" };
const address = {
  name: "Anna de Vries",
  street: "Dorpsstraat 12",
  postcode: "1234 AB",
  city: "Utrecht",
  country: "NL" as const,
  email: "anna@example.nl",
};
const key = (n: number) => `key-${String(n).padStart(18, "0")}`;

/** The order the route would make of the snapshot: one line per cart line at 10 euro. */
const prepare: PrepareOrder<string> = ({ lines, address: saved }) => {
  if (lines.length === 0 || !saved) return { refused: "nothing to order" };
  const draft: OrderDraft = {
    locale: "nl",
    address: saved,
    lines: lines.map((l) => ({
      ...l,
      productName: "Exclusief fotoboek",
      unitCents: 1000,
      totalCents: 1000 * l.quantity,
    })),
    subtotalCents: 2000,
    shippingCents: 0,
    vatRate: 21,
    vatCents: 347,
    totalCents: 2000,
    production: { min: 3, max: 5 },
  };
  const mail = (orderId: number): OutgoingMail => ({
    kind: "order-confirmation",
    locale: "nl",
    to: saved.email,
    subject: `Bestelling ${orderId}`,
    text: "Bedankt",
  });
  return { draft, mail };
};

describe.each(testDatabases())("the order repository on $name", (target) => {
  const open = databasePerTest(target);

  async function fullCart(database: Database): Promise<string> {
    const carts = cartRepository(database.db);
    const id = await carts.create();
    await carts.add(id, book, 2);
    await carts.saveAddress(id, address);
    return id;
  }

  it("places an order with its lines and mail in one go, and empties the cart", async () => {
    const database = await open();
    const cartId = await fullCart(database);
    const orders = orderRepository(database.db);
    const result = await orders.place(cartId, key(1), prepare);
    expect(result.kind).toBe("placed");
    if (result.kind !== "placed") return;
    const order = await orders.find(result.orderId, cartId);
    expect(order).toMatchObject({
      status: "awaiting_payment",
      address,
      totalCents: 2000,
      production: { min: 3, max: 5 },
    });
    expect(order?.lines).toEqual([
      { ...book, productName: "Exclusief fotoboek", quantity: 2, unitCents: 1000, totalCents: 2000 },
    ]);
    const mails = await database.db.selectFrom("outbox").selectAll().execute();
    expect(mails.map((m) => m.subject)).toEqual([`Bestelling ${result.orderId}`]);
    const carts = cartRepository(database.db);
    expect(await carts.lines(cartId)).toEqual([]);
    expect(await carts.address(cartId)).toBeUndefined();
  });

  it("answers a repeated key with the first order, also when the posts arrive together", async () => {
    const database = await open();
    const cartId = await fullCart(database);
    const orders = orderRepository(database.db);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => orders.place(cartId, key(2), prepare)),
    );
    const ids = new Set(results.map((r) => (r.kind === "placed" || r.kind === "existing" ? r.orderId : -1)));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.kind === "placed")).toHaveLength(1);
    expect(await database.db.selectFrom("orders").selectAll().execute()).toHaveLength(1);
    expect(await database.db.selectFrom("outbox").selectAll().execute()).toHaveLength(1);
  });

  it("places one order when two different keys race for the same cart (two tabs)", async () => {
    const database = await open();
    const cartId = await fullCart(database);
    const orders = orderRepository(database.db);
    const results = await Promise.all([
      orders.place(cartId, key(3), prepare),
      orders.place(cartId, key(4), prepare),
    ]);
    expect(results.map((r) => r.kind).sort()).toEqual(["placed", "refused"]);
    expect(await database.db.selectFrom("orders").selectAll().execute()).toHaveLength(1);
  });

  it("stores nothing when the mail cannot be queued, and leaves the cart as it was", async () => {
    const database = await open();
    const cartId = await fullCart(database);
    await sql`drop table outbox`.execute(database.db);
    await expect(orderRepository(database.db).place(cartId, key(5), prepare)).rejects.toThrow();
    expect(await database.db.selectFrom("orders").selectAll().execute()).toEqual([]);
    expect(await database.db.selectFrom("order_lines").selectAll().execute()).toEqual([]);
    expect(await cartRepository(database.db).itemCount(cartId)).toBe(2);
  });

  it("never shows or reuses an order for another cart", async () => {
    const database = await open();
    const mine = await fullCart(database);
    const theirs = await fullCart(database);
    const orders = orderRepository(database.db);
    const placed = await orders.place(mine, key(6), prepare);
    if (placed.kind !== "placed") throw new Error(placed.kind);
    expect(await orders.find(placed.orderId, theirs)).toBeUndefined();
    expect(await orders.place(theirs, key(6), prepare)).toEqual({ kind: "foreign-key" });
    expect(await cartRepository(database.db).itemCount(theirs)).toBe(2);
  });

  it("takes adds that arrive while the order is being placed, without a deadlock and losing none", async () => {
    const database = await open();
    const carts = cartRepository(database.db);
    const orders = orderRepository(database.db);
    const poster = { productId: "poster", orientation: "portrait", sizeId: "30x40" };
    // Several rounds: the adds must land in the order's window on the cart's lines.
    for (let round = 0; round < 5; round++) {
      const cartId = await fullCart(database);
      const adds = 12;
      const [placed] = await Promise.all([
        orders.place(cartId, key(100 + round), prepare),
        ...Array.from({ length: adds }, (_, i) => carts.add(cartId, i % 2 === 0 ? book : poster, 1)),
      ]);
      if (placed.kind !== "placed") throw new Error(`round ${round}: ${placed.kind}`);
      const order = await orders.find(placed.orderId, cartId);
      const ordered = (order?.lines ?? []).reduce((sum, line) => sum + line.quantity, 0);
      // Each add went into the order or waits in the cart for the next one.
      expect(ordered + (await carts.itemCount(cartId)), `round ${round}`).toBe(2 + adds);
    }
  });

  it("refuses as the preparation says, writing nothing", async () => {
    const database = await open();
    const cartId = await cartRepository(database.db).create();
    expect(await orderRepository(database.db).place(cartId, key(7), prepare)).toEqual({
      kind: "refused",
      reason: "nothing to order",
    });
    expect(await database.db.selectFrom("orders").selectAll().execute()).toEqual([]);
  });
});
