import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

/**
 * A revision number per shopper (the id in their shopper cookie), raised by the database
 * itself whenever anything of theirs that the photo pages show changes: a photo uploaded,
 * moved or removed, a photo book started, changed, moved to an account or deleted, a book
 * ordered (its pages can then no longer be taken out). The photo-book editor is kept per
 * shopper and revision, and sent again only while the revision stands, on whichever
 * instance the change was made; triggers, as for the carts' revisions (0007), so that no
 * code path can forget to raise it. Rows are never deleted: a number that started again
 * could match what a kept page was made at.
 */
export const shopperRevisions: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("shopper_revisions")
      .addColumn("owner_id", "text", (c) => c.primaryKey())
      .addColumn("revision", "integer", (c) => c.notNull())
      .execute();

    if (isPostgres) {
      await sql`
        create function bump_shopper_revision() returns trigger language plpgsql as $$
        declare
          owners text[];
        begin
          if tg_table_name = 'order_lines' then
            owners := array(select owner_id from photo_projects where id = new.project_id);
          else
            owners := array[]::text[];
            if tg_op <> 'INSERT' then owners := owners || old.owner_id; end if;
            if tg_op <> 'DELETE' then owners := owners || new.owner_id; end if;
          end if;
          insert into shopper_revisions (owner_id, revision)
            select distinct owner, 1 from unnest(owners) as owner where owner is not null
            on conflict (owner_id) do update set revision = shopper_revisions.revision + 1;
          return null;
        end $$`.execute(db);
      for (const table of ["uploads", "photo_projects"]) {
        await sql`create trigger ${sql.id(`${table}_shopper_revision`)} after insert or update or delete
          on ${sql.table(table)} for each row execute function bump_shopper_revision()`.execute(db);
      }
      await sql`create trigger order_lines_shopper_revision after insert on order_lines
        for each row when (new.project_id is not null) execute function bump_shopper_revision()`.execute(db);
      return;
    }

    // The WHERE clause also tells SQLite's grammar that ON CONFLICT is an upsert, not a join's ON.
    const bump = (owner: string) =>
      `insert into shopper_revisions (owner_id, revision) select ${owner}, 1 where ${owner} is not null
        on conflict (owner_id) do update set revision = revision + 1;`;
    const triggers = [
      ...["uploads", "photo_projects"].flatMap((table) => [
        `create trigger ${table}_shopper_revision_insert after insert on ${table} begin ${bump("new.owner_id")} end`,
        `create trigger ${table}_shopper_revision_update after update on ${table} begin ${bump("old.owner_id")}
          ${bump("new.owner_id")} end`,
        `create trigger ${table}_shopper_revision_delete after delete on ${table} begin ${bump("old.owner_id")} end`,
      ]),
      `create trigger order_lines_shopper_revision_insert after insert on order_lines when new.project_id is not null
        begin ${bump("(select owner_id from photo_projects where id = new.project_id)")} end`,
    ];
    for (const trigger of triggers) await sql.raw(trigger).execute(db);
  },

  async down(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    if (isPostgres) {
      for (const table of ["uploads", "photo_projects", "order_lines"]) {
        await sql`drop trigger ${sql.id(`${table}_shopper_revision`)} on ${sql.table(table)}`.execute(db);
      }
      await sql`drop function bump_shopper_revision()`.execute(db);
    } else {
      for (const trigger of [
        ...["uploads", "photo_projects"].flatMap((table) =>
          ["insert", "update", "delete"].map((op) => `${table}_shopper_revision_${op}`),
        ),
        "order_lines_shopper_revision_insert",
      ]) {
        await sql.raw(`drop trigger ${trigger}`).execute(db);
      }
    }
    await db.schema.dropTable("shopper_revisions").execute();
  },
};
