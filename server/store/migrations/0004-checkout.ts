import { type Kysely, type Migration, PostgresAdapter } from "kysely";

/**
 * Checkout: the delivery address saved on a cart, and orders with their lines.
 * An order keeps a copy of everything it was placed with (names, prices, address), so
 * a later change to the catalogue never changes what a shopper ordered.
 */
export const checkout: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("cart_addresses")
      .addColumn("cart_id", "text", (c) => c.primaryKey().references("carts.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("street", "text", (c) => c.notNull())
      .addColumn("postcode", "text", (c) => c.notNull())
      .addColumn("city", "text", (c) => c.notNull())
      .addColumn("country", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("phone", "text")
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("orders")
      .addColumn("id", isPostgres ? "bigserial" : "integer", (c) =>
        isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      // The place-order form's key: a repeated or retried post finds this order instead of making another.
      .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
      // Not a foreign key: the order outlives the cart it came from.
      .addColumn("cart_id", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("street", "text", (c) => c.notNull())
      .addColumn("postcode", "text", (c) => c.notNull())
      .addColumn("city", "text", (c) => c.notNull())
      .addColumn("country", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("phone", "text")
      .addColumn("subtotal_cents", "integer", (c) => c.notNull())
      .addColumn("shipping_cents", "integer", (c) => c.notNull())
      .addColumn("vat_rate", "integer", (c) => c.notNull())
      .addColumn("vat_cents", "integer", (c) => c.notNull())
      .addColumn("total_cents", "integer", (c) => c.notNull())
      .addColumn("production_min_days", "integer", (c) => c.notNull())
      .addColumn("production_max_days", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("orders_cart").on("orders").column("cart_id").execute();

    await db.schema
      .createTable("order_lines")
      .addColumn("order_id", isPostgres ? "bigint" : "integer", (c) =>
        c.notNull().references("orders.id").onDelete("cascade"),
      )
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("product_id", "text", (c) => c.notNull())
      .addColumn("orientation", "text", (c) => c.notNull())
      .addColumn("size_id", "text", (c) => c.notNull())
      .addColumn("product_name", "text", (c) => c.notNull())
      .addColumn("quantity", "integer", (c) => c.notNull())
      .addColumn("unit_cents", "integer", (c) => c.notNull())
      .addColumn("total_cents", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("order_lines_pk", ["order_id", "position"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("order_lines").execute();
    await db.schema.dropTable("orders").execute();
    await db.schema.dropTable("cart_addresses").execute();
  },
};
