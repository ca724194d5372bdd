import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import type { Schema } from "./schema.ts";
import { preparingOnce } from "./sqlite-statements.ts";

export type Dialect = "sqlite" | "postgres";

export interface Database {
  db: Kysely<Schema>;
  dialect: Dialect;
  /** Throws when the database cannot answer; used by /healthz and at start-up. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL only: work inside this schema (tests use a throw-away one). */
  schema?: string;
  poolSize?: number;
}

function sqlitePath(url: string): string {
  return url.replace(/^(sqlite|file):(\/\/)?/, "");
}

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
}

/**
 * Opens the shop's database: SQLite (the embedded default, a file under data/) or
 * PostgreSQL for several instances. The rest of the code sees only Kysely.
 */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  if (dialectOf(url) === "postgres") {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // An idle client that loses its server must not take the process down.
    pool.on("error", () => {});
    const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: "postgres",
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  }

  const file = sqlitePath(url);
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers run while one request writes; the busy timeout queues writers instead of failing them.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: preparingOnce(sqlite) }) });
  return {
    db,
    dialect: "sqlite",
    ping: async () => {
      if (!sqlite.open) throw new Error("database is closed");
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
