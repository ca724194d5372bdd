import type SQLite from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/**
 * better-sqlite3 as Kysely's SqliteDialect uses it, except that each distinct SQL text is
 * prepared once. Kysely prepares on every query, which cost about 4% of a cart page's
 * time; its queries have a fixed text per call site, so a small cache holds nearly all.
 * Reuse is safe: Kysely's SQLite driver runs one query at a time on its one connection,
 * and SQLite re-prepares a statement itself after a schema change (a migration).
 */
export function preparingOnce(sqlite: SQLite.Database, limit = 256): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        // Texts that vary (IN lists of any length) must not grow the cache without end.
        if (statements.size >= limit) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
