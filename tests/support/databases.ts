import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely, Transaction } from "kysely";
import pg from "pg";
import { afterEach } from "vitest";
import { type Database, openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";

export interface TestDatabase {
  name: string;
  open(): Promise<{ database: Database; cleanup(): Promise<void> }>;
}

/**
 * The databases the store's tests run on: SQLite always, PostgreSQL as well when
 * TEST_DATABASE_URL is set (CI sets it). Each PostgreSQL test gets its own schema,
 * dropped afterwards, so runs never see each other's rows. With `migrate: false` the
 * database is empty, for tests of a migration itself. With `sqliteFile` SQLite is a file,
 * as the shop runs it, so reads go through its read-only connection (database.ts).
 */
export function testDatabases({
  migrate = true,
  sqliteFile = false,
}: {
  migrate?: boolean;
  sqliteFile?: boolean;
} = {}): TestDatabase[] {
  const list: TestDatabase[] = [
    {
      name: sqliteFile ? "sqlite (a file)" : "sqlite",
      async open() {
        const dir = sqliteFile ? mkdtempSync(join(tmpdir(), "shop-store-")) : undefined;
        const database = openDatabase(dir ? `sqlite://${join(dir, "shop.db")}` : "sqlite::memory:");
        if (migrate) await migrateToLatest(database);
        return {
          database,
          async cleanup() {
            await database.close();
            if (dir) rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    list.push({
      name: "postgres",
      async open() {
        const schema = `test_${randomBytes(6).toString("hex")}`;
        const admin = new pg.Client({ connectionString: url });
        await admin.connect();
        await admin.query(`create schema ${schema}`);
        const database = openDatabase(url, { schema, poolSize: 20 });
        if (migrate) await migrateToLatest(database);
        return {
          database,
          async cleanup() {
            await database.close();
            await admin.query(`drop schema ${schema} cascade`);
            await admin.end();
          },
        };
      },
    });
  }
  return list;
}

/**
 * For a describe block: a function that opens the target's database for the current test;
 * it is closed, and its PostgreSQL schema dropped, when that test ends.
 */
export function databasePerTest(target: TestDatabase): () => Promise<Database> {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });
  return async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    return opened.database;
  };
}

/**
 * A transaction that has written and is held open until `commit` is called: what every
 * other connection must not see yet. `commit` lets it finish and waits for it.
 */
export async function transactionHeldOpen<DB>(
  db: Kysely<DB>,
  write: (trx: Transaction<DB>) => Promise<unknown>,
): Promise<{ commit(): Promise<void> }> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let written: () => void = () => {};
  const inside = new Promise<void>((resolve) => {
    written = resolve;
  });
  const transaction = db.transaction().execute(async (trx) => {
    await write(trx);
    written();
    await held;
  });
  // A write that fails ends the transaction before it is held: its error is thrown here.
  await Promise.race([inside, transaction]);
  return {
    async commit() {
      release();
      await transaction;
    },
  };
}
