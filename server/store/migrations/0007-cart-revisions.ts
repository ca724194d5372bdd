import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

/**
 * A revision number on every cart, raised by the database itself whenever
 * anything the cart pages show changes: a line added, changed or removed, the address
 * saved, a photo added to or taken from a line's photo-book project, the project deleted.
 * The rendered cart page is kept per cart and revision (cart-page-cache in pages.ts), so
 * a change that no code path could forget to announce is what keeps it from going stale;
 * hence triggers, not updates in the repositories.
 */
export const cartRevisions: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .alterTable("carts")
      .addColumn("revision", "integer", (c) => c.notNull().defaultTo(0))
      .execute();

    if (isPostgres) {
      await sql`
        create function bump_cart_revision() returns trigger language plpgsql as $$
        begin
          if tg_op <> 'INSERT' then
            update carts set revision = revision + 1 where id = old.cart_id;
          end if;
          if tg_op <> 'DELETE' then
            update carts set revision = revision + 1 where id = new.cart_id;
          end if;
          return null;
        end $$`.execute(db);
      await sql`
        create function bump_project_cart_revisions() returns trigger language plpgsql as $$
        begin
          if tg_table_name = 'photo_projects' then
            update carts set revision = revision + 1
              where id in (select cart_id from cart_lines where project_id = old.id);
            return null;
          end if;
          if tg_op <> 'INSERT' and old.project_id is not null then
            update carts set revision = revision + 1
              where id in (select cart_id from cart_lines where project_id = old.project_id);
          end if;
          if tg_op <> 'DELETE' and new.project_id is not null then
            update carts set revision = revision + 1
              where id in (select cart_id from cart_lines where project_id = new.project_id);
          end if;
          return null;
        end $$`.execute(db);
      for (const table of ["cart_lines", "cart_addresses"]) {
        await sql`create trigger ${sql.id(`${table}_revision`)} after insert or update or delete on ${sql.table(table)}
          for each row execute function bump_cart_revision()`.execute(db);
      }
      await sql`create trigger uploads_revision after insert or update of project_id or delete on uploads
        for each row execute function bump_project_cart_revisions()`.execute(db);
      await sql`create trigger photo_projects_revision after delete on photo_projects
        for each row execute function bump_project_cart_revisions()`.execute(db);
      return;
    }

    const bump = (cart: string) => `update carts set revision = revision + 1 where id = ${cart};`;
    const bumpProject = (project: string) =>
      `update carts set revision = revision + 1 where id in (select cart_id from cart_lines where project_id = ${project});`;
    const triggers = [
      ...["cart_lines", "cart_addresses"].flatMap((table) => [
        `create trigger ${table}_revision_insert after insert on ${table} begin ${bump("new.cart_id")} end`,
        `create trigger ${table}_revision_update after update on ${table} begin ${bump("old.cart_id")} ${bump("new.cart_id")} end`,
        `create trigger ${table}_revision_delete after delete on ${table} begin ${bump("old.cart_id")} end`,
      ]),
      `create trigger uploads_revision_insert after insert on uploads when new.project_id is not null
        begin ${bumpProject("new.project_id")} end`,
      `create trigger uploads_revision_update after update of project_id on uploads
        begin ${bumpProject("old.project_id")} ${bumpProject("new.project_id")} end`,
      `create trigger uploads_revision_delete after delete on uploads when old.project_id is not null
        begin ${bumpProject("old.project_id")} end`,
      `create trigger photo_projects_revision_delete after delete on photo_projects
        begin ${bumpProject("old.id")} end`,
    ];
    for (const trigger of triggers) await sql.raw(trigger).execute(db);
  },

  async down(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    if (isPostgres) {
      for (const [trigger, table] of [
        ["cart_lines_revision", "cart_lines"],
        ["cart_addresses_revision", "cart_addresses"],
        ["uploads_revision", "uploads"],
        ["photo_projects_revision", "photo_projects"],
      ] as const) {
        await sql`drop trigger ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
      }
      await sql`drop function bump_cart_revision()`.execute(db);
      await sql`drop function bump_project_cart_revisions()`.execute(db);
    } else {
      for (const trigger of [
        "cart_lines_revision_insert",
        "cart_lines_revision_update",
        "cart_lines_revision_delete",
        "cart_addresses_revision_insert",
        "cart_addresses_revision_update",
        "cart_addresses_revision_delete",
        "uploads_revision_insert",
        "uploads_revision_update",
        "uploads_revision_delete",
        "photo_projects_revision_delete",
      ]) {
        await sql.raw(`drop trigger ${trigger}`).execute(db);
      }
    }
    await db.schema.alterTable("carts").dropColumn("revision").execute();
  },
};
