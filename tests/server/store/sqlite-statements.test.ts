import SQLite from "better-sqlite3";
import { type Generated, Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { preparingOnce } from "../../../server/store/sqlite-statements.ts";

let sqlite: SQLite.Database | undefined;
afterEach(() => {
  if (sqlite?.open) sqlite.close();
  sqlite = undefined;
});

function counted(limit?: number) {
  sqlite = new SQLite(":memory:");
  const real = sqlite;
  let prepared = 0;
  const spy = new Proxy(real, {
    get(target, key) {
      if (key === "prepare")
        return (text: string) => {
          prepared++;
          return target.prepare(text);
        };
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const db = new Kysely<{ items: { id: Generated<number>; name: string } }>({
    dialect: new SqliteDialect({ database: preparingOnce(spy, limit) }),
  });
  return { db, prepared: () => prepared };
}

describe("SQLite statements for Kysely", () => {
  it("prepares a query's text once, and each run still sees its own parameters", async () => {
    const { db, prepared } = counted();
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    for (const name of ["fotoboek", "canvas", "poster"]) {
      await db.insertInto("items").values({ name }).execute();
    }
    const before = prepared();
    const names = [];
    for (const id of [1, 2, 3]) {
      const row = await db.selectFrom("items").select("name").where("id", "=", id).executeTakeFirst();
      names.push(row?.name);
    }
    expect(names).toEqual(["fotoboek", "canvas", "poster"]);
    expect(prepared() - before).toBe(1);
  });

  it("keeps working after the schema changes under a prepared statement (a migration)", async () => {
    const { db } = counted();
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    await db.insertInto("items").values({ name: "fotoboek" }).execute();
    const all = () => db.selectFrom("items").selectAll().execute();
    expect(await all()).toEqual([{ id: 1, name: "fotoboek" }]);
    await sql`alter table items add column note text`.execute(db);
    expect(await all()).toEqual([{ id: 1, name: "fotoboek", note: null }]);
  });

  it("stays within its limit when query texts keep changing (IN lists of every length)", async () => {
    const { db, prepared } = counted(4);
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    const before = prepared();
    for (let n = 1; n <= 10; n++) {
      const ids = Array.from({ length: n }, (_, i) => i + 1);
      await db.selectFrom("items").select("id").where("id", "in", ids).execute();
    }
    expect(prepared() - before).toBe(10);
    // The most recent text is still held, so asking again prepares nothing.
    await db
      .selectFrom("items")
      .select("id")
      .where(
        "id",
        "in",
        Array.from({ length: 10 }, (_, i) => i + 1),
      )
      .execute();
    expect(prepared() - before).toBe(10);
  });

  it("closes the database with Kysely", async () => {
    const { db } = counted();
    await sql`select 1`.execute(db);
    await db.destroy();
    expect(sqlite?.open).toBe(false);
  });
});
