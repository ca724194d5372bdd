import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrateToLatest } from "../../../server/store/migrate.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

const postgres = testDatabases().filter((target) => target.name === "postgres");

/**
 * Two shops (or two test workers) share one PostgreSQL database in schemas of their own. What
 * the migrator asks about its tables must not depend on the other schemas, or one being
 * dropped while the other starts fails the start ("schema … does not exist").
 */
describe.runIf(postgres.length > 0).each(postgres)("a shop in its own schema, on $name", (target) => {
  const open = databasePerTest(target);

  it("sees only its own tables, with their columns", async () => {
    const database = await open();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const neighbour = `test_${randomBytes(6).toString("hex")}`;
    try {
      await admin.query(`create schema ${neighbour}`);
      await admin.query(`create table ${neighbour}.neighbours_only (id serial primary key)`);
      const tables = await database.db.introspection.getTables();
      const names = tables.map((table) => table.name);
      expect(names).toContain("carts");
      expect(names).not.toContain("neighbours_only");
      expect(names).not.toContain("kysely_migration");
      expect(
        (await database.db.introspection.getTables({ withInternalKyselyTables: true })).map((t) => t.name),
      ).toContain("kysely_migration");
      const schemas = new Set(tables.map((table) => table.schema));
      expect(schemas.size).toBe(1);

      const lines = tables.find((table) => table.name === "cart_lines");
      expect(lines?.columns.find((column) => column.name === "quantity")).toMatchObject({
        dataType: "int4",
        isNullable: false,
        hasDefaultValue: false,
        isAutoIncrementing: false,
      });
    } finally {
      await admin.query(`drop schema ${neighbour} cascade`);
      await admin.end();
    }
  });

  it("migrates again while other schemas come and go", async () => {
    const database = await open();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    let churning = true;
    const churn = (async () => {
      while (churning) {
        const other = `test_${randomBytes(6).toString("hex")}`;
        await admin.query(`create schema ${other}`);
        await admin.query(`create table ${other}.t (id serial primary key, name text)`);
        await admin.query(`drop schema ${other} cascade`);
      }
    })();
    try {
      for (let i = 0; i < 20; i++) expect(await migrateToLatest(database)).toEqual([]);
    } finally {
      churning = false;
      await churn;
      await admin.end();
    }
  });
});
