import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

/**
 * A revision number per account, raised by the database itself whenever anything the
 * account's pages show changes: its name or e-mail address, an address in its book, an
 * order of its own (placed, paid, shipped, moved to it), its subscription; and whenever one
 * of its sessions ends or the account is deleted, so that a kept page stops holding for a
 * browser that was signed out on another device. The account pages are kept per account and
 * revision and sent again only while it stands, on whichever instance the change was made
 * (routes/account*.ts); triggers, as for the carts' (0007) and shoppers' (0015) revisions, so
 * that no code path can forget to raise it. A session's last use (written every few minutes)
 * and a new session change nothing shown, so they raise nothing. Rows are never deleted: a
 * number that started again could match what a kept page was made at.
 */

/** Tables whose rows name an account in `account_id`, and the changes to them that show. */
const accountRows = [
  { table: "addresses", on: ["insert", "update", "delete"] },
  { table: "orders", on: ["insert", "update", "delete"] },
  { table: "subscriptions", on: ["insert", "update", "delete"] },
  { table: "sessions", on: ["delete"] },
] as const;

export const accountRevisions: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable("account_revisions")
      .addColumn("account_id", "text", (c) => c.primaryKey())
      .addColumn("revision", "integer", (c) => c.notNull())
      .execute();

    if (isPostgres) {
      await sql`
        create function bump_account_revision() returns trigger language plpgsql as $$
        declare
          accounts text[] := array[]::text[];
        begin
          if tg_table_name = 'accounts' then
            accounts := array[old.id];
          else
            if tg_op <> 'INSERT' then accounts := accounts || old.account_id; end if;
            if tg_op <> 'DELETE' then accounts := accounts || new.account_id; end if;
          end if;
          insert into account_revisions (account_id, revision)
            select distinct account, 1 from unnest(accounts) as account where account is not null
            on conflict (account_id) do update set revision = account_revisions.revision + 1;
          return null;
        end $$`.execute(db);
      await sql`create trigger accounts_account_revision after update or delete on accounts
        for each row execute function bump_account_revision()`.execute(db);
      for (const { table, on } of accountRows) {
        await sql`create trigger ${sql.id(`${table}_account_revision`)} after ${sql.raw(on.join(" or "))}
          on ${sql.table(table)} for each row execute function bump_account_revision()`.execute(db);
      }
      return;
    }

    // The WHERE clause also tells SQLite's grammar that ON CONFLICT is an upsert, not a join's ON.
    const bump = (account: string) =>
      `insert into account_revisions (account_id, revision) select ${account}, 1 where ${account} is not null
        on conflict (account_id) do update set revision = revision + 1;`;
    const rows = { insert: ["new"], update: ["old", "new"], delete: ["old"] } as const;
    const triggers = [
      `create trigger accounts_account_revision_update after update on accounts begin ${bump("old.id")} end`,
      `create trigger accounts_account_revision_delete after delete on accounts begin ${bump("old.id")} end`,
      ...accountRows.flatMap(({ table, on }) =>
        on.map(
          (op) =>
            `create trigger ${table}_account_revision_${op} after ${op} on ${table} begin
              ${rows[op].map((row) => bump(`${row}.account_id`)).join("\n")} end`,
        ),
      ),
    ];
    for (const trigger of triggers) await sql.raw(trigger).execute(db);
  },

  async down(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    if (isPostgres) {
      for (const table of ["accounts", ...accountRows.map((rows) => rows.table)]) {
        await sql`drop trigger ${sql.id(`${table}_account_revision`)} on ${sql.table(table)}`.execute(db);
      }
      await sql`drop function bump_account_revision()`.execute(db);
    } else {
      for (const trigger of [
        "accounts_account_revision_update",
        "accounts_account_revision_delete",
        ...accountRows.flatMap(({ table, on }) => on.map((op) => `${table}_account_revision_${op}`)),
      ]) {
        await sql.raw(`drop trigger ${trigger}`).execute(db);
      }
    }
    await db.schema.dropTable("account_revisions").execute();
  },
};
