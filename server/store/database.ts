import { chmodSync, closeSync, openSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { withCurrentSchemaIntrospection } from "./current-schema-introspector.ts";
import { makePrivateFolderSync, privateFileMode } from "./private-files.ts";
import { readsWhileUnchanged } from "./reads-while-unchanged.ts";
import type { Schema } from "./schema.ts";
import { preparingOnce } from "./sqlite-statements.ts";
import { walCommits } from "./wal-commits.ts";

export type Dialect = "sqlite" | "postgres";

export interface Database {
  db: Kysely<Schema>;
  dialect: Dialect;
  /**
   * One read of committed data, outside any transaction, for the few reads on every page
   * view (a cart's revision). On SQLite a file database has a connection of its own for
   * these, kept to reads and run at once: they skip the queue for the one writing
   * connection, and that connection's open transactions can never show through. There, a
   * read is answered from memory while no one has committed since it was made
   * (reads-while-unchanged.ts).
   */
  readCommitted<Row>(query: CompiledQuery): Promise<Row[]>;
  /**
   * A mark of what has been committed: the same mark later means nothing was committed in
   * between, on any connection of any process. Undefined where the database cannot tell:
   * PostgreSQL, an in-memory SQLite, a SQLite file whose WAL index is being written
   * (wal-commits.ts).
   */
  commitMark(): string | undefined;
  /** Throws when the database cannot answer; used by /healthz and at start-up. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL only: work inside this schema (tests use a throw-away one). */
  schema?: string;
  poolSize?: number;
}

/** What a repository needs of the database for the reads of every page view (a cart's count). */
export type PageViewReads = Pick<Database, "readCommitted">;

/** Reads through Kysely: what a repository uses when it is given no read connection (tests, scripts). */
export function readsThrough(db: Kysely<Schema>): PageViewReads {
  return { readCommitted: async <Row>(query: CompiledQuery) => (await db.executeQuery<Row>(query)).rows };
}

function sqlitePath(url: string): string {
  return url.replace(/^(sqlite|file):(\/\/)?/, "");
}

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
}

/**
 * The database file exists, 0600, before SQLite opens it: SQLite gives its -wal and -shm
 * files the database file's mode, so they are private too. A database from before files
 * were private is made so here, with whatever companions it has lying next to it.
 */
function privateDatabaseFile(file: string): void {
  makePrivateFolderSync(dirname(file));
  closeSync(openSync(file, "a", privateFileMode));
  for (const path of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      chmodSync(path, privateFileMode);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
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
    const db = new Kysely<Schema>({
      dialect: withCurrentSchemaIntrospection(new PostgresDialect({ pool })),
    });
    return {
      db,
      dialect: "postgres",
      readCommitted: readsThrough(db).readCommitted,
      // A NOTIFY would come after the commit, in its own time: too late for the next request.
      commitMark: () => undefined,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  }

  const file = sqlitePath(url);
  if (file !== ":memory:") privateDatabaseFile(file);
  const sqlite = new SQLite(file);
  // WAL lets readers run while one request writes; the busy timeout queues writers instead of failing them.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: preparingOnce(sqlite) }) });
  // An in-memory database exists only on its one connection: there, reads go through Kysely.
  // A read-only open needs the WAL's -shm file to exist already; query_only is the same
  // promise without that condition.
  const reader = file === ":memory:" ? undefined : new SQLite(file);
  reader?.pragma("query_only = ON");
  const readerStatements = reader ? preparingOnce(reader) : undefined;
  // The two connections stay open while the shop runs, which keeps the -shm file the stamp
  // reads in place (wal-commits.ts).
  const commits = reader ? walCommits(file) : undefined;
  const readUnchanged =
    readerStatements && commits
      ? readsWhileUnchanged(
          (query) => readerStatements.prepare(query.sql).all(query.parameters) as unknown[],
          commits,
        )
      : undefined;
  return {
    db,
    dialect: "sqlite",
    readCommitted: async <Row>(query: CompiledQuery) =>
      readUnchanged ? (readUnchanged(query) as Row[]) : (await db.executeQuery<Row>(query)).rows,
    // The header's bytes as a string: kept by its users, compared with ===.
    commitMark: () => commits?.stamp()?.toString("latin1"),
    ping: async () => {
      if (!sqlite.open) throw new Error("database is closed");
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await db.destroy();
      commits?.close();
      readerStatements?.close();
    },
  };
}
