import type { Kysely, Migration } from "kysely";

export const carts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("carts")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    // One row per chosen option, so adding the same option again is an atomic upsert.
    await db.schema
      .createTable("cart_lines")
      .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
      .addColumn("product_id", "text", (c) => c.notNull())
      .addColumn("orientation", "text", (c) => c.notNull())
      .addColumn("size_id", "text", (c) => c.notNull())
      .addColumn("quantity", "integer", (c) => c.notNull())
      .addColumn("added_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("cart_lines_pk", ["cart_id", "product_id", "orientation", "size_id"])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable("cart_lines").execute();
    await db.schema.dropTable("carts").execute();
  },
};
