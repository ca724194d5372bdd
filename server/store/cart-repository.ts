import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Schema } from "./schema.ts";

export interface CartItem {
  productId: string;
  orientation: string;
  sizeId: string;
}

export interface CartLine extends CartItem {
  quantity: number;
}

export interface CartRepository {
  create(): Promise<string>;
  exists(cartId: string): Promise<boolean>;
  /** Adds to the line for this option, creating it when needed; safe under concurrent requests. */
  add(cartId: string, item: CartItem, quantity: number): Promise<void>;
  lines(cartId: string): Promise<CartLine[]>;
  itemCount(cartId: string): Promise<number>;
}

const now = () => new Date().toISOString();

export function cartRepository(db: Kysely<Schema>): CartRepository {
  return {
    async create() {
      // 128 random bits: a cart id is a bearer secret, never guessable from another one.
      const id = randomBytes(16).toString("base64url");
      const at = now();
      await db.insertInto("carts").values({ id, created_at: at, updated_at: at }).execute();
      return id;
    },

    async exists(cartId) {
      const row = await db.selectFrom("carts").select("id").where("id", "=", cartId).executeTakeFirst();
      return row !== undefined;
    },

    async add(cartId, item, quantity) {
      const at = now();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("cart_lines")
          .values({
            cart_id: cartId,
            product_id: item.productId,
            orientation: item.orientation,
            size_id: item.sizeId,
            quantity,
            added_at: at,
          })
          .onConflict((oc) =>
            oc
              .columns(["cart_id", "product_id", "orientation", "size_id"])
              .doUpdateSet({ quantity: sql`cart_lines.quantity + excluded.quantity` }),
          )
          .execute();
        await trx.updateTable("carts").set({ updated_at: at }).where("id", "=", cartId).execute();
      });
    },

    async lines(cartId) {
      const rows = await db
        .selectFrom("cart_lines")
        .select(["product_id", "orientation", "size_id", "quantity"])
        .where("cart_id", "=", cartId)
        .orderBy("added_at")
        .orderBy("product_id")
        .execute();
      return rows.map((r) => ({
        productId: r.product_id,
        orientation: r.orientation,
        sizeId: r.size_id,
        quantity: Number(r.quantity),
      }));
    },

    async itemCount(cartId) {
      const row = await db
        .selectFrom("cart_lines")
        .select((eb) => eb.fn.sum<string | number | null>("quantity").as("total"))
        .where("cart_id", "=", cartId)
        .executeTakeFirst();
      return Number(row?.total ?? 0);
    },
  };
}
