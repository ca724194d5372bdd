import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

/**
 * Photo subscriptions, shoppers' uploaded photos, photo-book projects, and a
 * cart line that carries a project.
 *
 * Cart lines were keyed by (cart, product, orientation, size). A line with a project is
 * a line of its own (two projects in the same format are two books), so that key becomes
 * two partial unique indexes: one for plain lines, one per (cart, project). PostgreSQL
 * can drop a primary key in place; SQLite cannot, so there the table is rebuilt with the
 * same columns (0001's) plus project_id. Order lines (0004) get the project too.
 */
export const photoProjectsAndSubscriptions: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

    await db.schema
      .createTable("photo_projects")
      .addColumn("id", "text", (c) => c.primaryKey())
      // The shopper's opaque id from the signed "shopper" cookie: only they see the project.
      .addColumn("owner_id", "text", (c) => c.notNull())
      .addColumn("product_id", "text", (c) => c.notNull())
      .addColumn("orientation", "text", (c) => c.notNull())
      .addColumn("size_id", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("photo_projects_owner").on("photo_projects").column("owner_id").execute();

    await db.schema
      .createTable("uploads")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("owner_id", "text", (c) => c.notNull())
      // Uploaded on the editor start before a project existed: attached when it is created.
      .addColumn("project_id", "text", (c) => c.references("photo_projects.id").onDelete("set null"))
      .addColumn("original_name", "text", (c) => c.notNull())
      // What the content turned out to be (jpeg, png, webp, heif), never what the name said.
      .addColumn("format", "text", (c) => c.notNull())
      .addColumn("width", "integer", (c) => c.notNull())
      .addColumn("height", "integer", (c) => c.notNull())
      .addColumn("bytes", "integer", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("uploads_owner_created")
      .on("uploads")
      .columns(["owner_id", "created_at"])
      .execute();
    await db.schema.createIndex("uploads_project").on("uploads").column("project_id").execute();

    await db.schema
      .createTable("subscriptions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("owner_id", "text")
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      // Lower-cased and trimmed: one subscription per address, however it is typed.
      .addColumn("email_key", "text", (c) => c.notNull().unique())
      .addColumn("plan_id", "text", (c) => c.notNull())
      .addColumn("monthly_cents", "integer", (c) => c.notNull())
      .addColumn("offer_cents", "integer")
      .addColumn("offer_months", "integer")
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("subscriptions_owner").on("subscriptions").column("owner_id").execute();

    if (isPostgres) {
      await sql`alter table cart_lines drop constraint cart_lines_pk`.execute(db);
      await db.schema
        .alterTable("cart_lines")
        .addColumn("project_id", "text", (c) => c.references("photo_projects.id"))
        .execute();
    } else {
      await db.schema
        .createTable("cart_lines_next")
        .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
        .addColumn("product_id", "text", (c) => c.notNull())
        .addColumn("orientation", "text", (c) => c.notNull())
        .addColumn("size_id", "text", (c) => c.notNull())
        .addColumn("quantity", "integer", (c) => c.notNull())
        .addColumn("added_at", "text", (c) => c.notNull())
        .addColumn("project_id", "text", (c) => c.references("photo_projects.id"))
        .execute();
      await sql`insert into cart_lines_next (cart_id, product_id, orientation, size_id, quantity, added_at)
        select cart_id, product_id, orientation, size_id, quantity, added_at from cart_lines`.execute(db);
      await db.schema.dropTable("cart_lines").execute();
      await db.schema.alterTable("cart_lines_next").renameTo("cart_lines").execute();
    }
    await db.schema
      .createIndex("cart_lines_option")
      .on("cart_lines")
      .columns(["cart_id", "product_id", "orientation", "size_id"])
      .unique()
      .where(sql.ref("project_id"), "is", null)
      .execute();
    await db.schema
      .createIndex("cart_lines_project")
      .on("cart_lines")
      .columns(["cart_id", "project_id"])
      .unique()
      .where(sql.ref("project_id"), "is not", null)
      .execute();
    await db.schema.createIndex("cart_lines_cart").on("cart_lines").column("cart_id").execute();

    // An ordered book keeps its project: production needs the photos.
    await db.schema
      .alterTable("order_lines")
      .addColumn("project_id", "text", (c) => c.references("photo_projects.id"))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema.alterTable("order_lines").dropColumn("project_id").execute();
    // Project lines have no place under the old key; they go, plain lines stay.
    await sql`delete from cart_lines where project_id is not null`.execute(db);
    await db.schema.dropIndex("cart_lines_cart").execute();
    await db.schema.dropIndex("cart_lines_project").execute();
    await db.schema.dropIndex("cart_lines_option").execute();
    if (isPostgres) {
      await db.schema.alterTable("cart_lines").dropColumn("project_id").execute();
      await sql`alter table cart_lines add constraint cart_lines_pk primary key (cart_id, product_id, orientation, size_id)`.execute(
        db,
      );
    } else {
      await db.schema
        .createTable("cart_lines_previous")
        .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
        .addColumn("product_id", "text", (c) => c.notNull())
        .addColumn("orientation", "text", (c) => c.notNull())
        .addColumn("size_id", "text", (c) => c.notNull())
        .addColumn("quantity", "integer", (c) => c.notNull())
        .addColumn("added_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("cart_lines_pk", ["cart_id", "product_id", "orientation", "size_id"])
        .execute();
      await sql`insert into cart_lines_previous select cart_id, product_id, orientation, size_id, quantity, added_at from cart_lines`.execute(
        db,
      );
      await db.schema.dropTable("cart_lines").execute();
      await db.schema.alterTable("cart_lines_previous").renameTo("cart_lines").execute();
    }
    await db.schema.dropTable("subscriptions").execute();
    await db.schema.dropTable("uploads").execute();
    await db.schema.dropTable("photo_projects").execute();
  },
};
