import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import type { CompiledQuery } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../server/store/database.ts";
import { readsWhileUnchanged } from "../../../server/store/reads-while-unchanged.ts";
import { type WalCommits, walCommits } from "../../../server/store/wal-commits.ts";
import { transactionHeldOpen } from "../../support/databases.ts";

const folders: string[] = [];
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A database file in WAL mode with one table, and a connection that keeps it open. */
function walFile(): { file: string; writer: SQLite.Database } {
  const folder = mkdtempSync(join(tmpdir(), "shop-wal-"));
  folders.push(folder);
  const file = join(folder, "shop.db");
  const writer = new SQLite(file);
  writer.pragma("journal_mode = WAL");
  writer.exec("create table counts (id text primary key, n integer not null)");
  writer.prepare("insert into counts values ('a', 1)").run();
  closers.push(() => writer.close());
  return { file, writer };
}

/** A WAL file as walFile makes it, with its stamp read, closed after the test. */
function watchedWalFile(): { file: string; writer: SQLite.Database; commits: WalCommits } {
  const { file, writer } = walFile();
  const commits = walCommits(file);
  closers.push(() => commits.close());
  return { file, writer, commits };
}

const query = (sql: string, parameters: unknown[] = []) => ({ sql, parameters }) as unknown as CompiledQuery;

/** What another process does to the file, as `npm run order` does: its own connection, its own commit. */
function commitFromAnotherProcess(file: string, sql: string): void {
  const script = `const S=require("better-sqlite3");const d=new S(process.argv[1]);d.exec(process.argv[2]);d.close()`;
  execFileSync(process.execPath, ["-e", script, file, sql], { cwd: process.cwd() });
}

describe("the WAL index's stamp", () => {
  it("stays the same while nobody commits, reads included", () => {
    const { writer, commits } = watchedWalFile();
    const before = Buffer.from(commits.stamp() ?? "");
    writer.prepare("select n from counts").all();
    expect(commits.stamp()?.equals(before)).toBe(true);
  });

  it("changes with a commit on another connection, and with one from another process", () => {
    const { file, writer, commits } = watchedWalFile();
    const first = Buffer.from(commits.stamp() ?? "");
    writer.prepare("update counts set n = n + 1").run();
    const second = Buffer.from(commits.stamp() ?? "");
    expect(second.equals(first)).toBe(false);
    commitFromAnotherProcess(file, "update counts set n = n + 1");
    expect(commits.stamp()?.equals(second)).toBe(false);
  });

  it("does not change for a transaction that is still open", () => {
    const { writer, commits } = watchedWalFile();
    const before = Buffer.from(commits.stamp() ?? "");
    writer.exec("begin immediate");
    writer.prepare("update counts set n = n + 1").run();
    expect(commits.stamp()?.equals(before)).toBe(true);
    writer.exec("commit");
    expect(commits.stamp()?.equals(before)).toBe(false);
  });

  it("cannot tell for a database that is not in WAL mode, nor once closed", () => {
    const folder = mkdtempSync(join(tmpdir(), "shop-wal-"));
    folders.push(folder);
    const file = join(folder, "journal.db");
    const plain = new SQLite(file);
    closers.push(() => plain.close());
    plain.exec("create table t (x integer)");
    expect(walCommits(file).stamp()).toBeUndefined();

    const { file: walFileName } = walFile();
    const commits = walCommits(walFileName);
    expect(commits.stamp()).toBeDefined();
    commits.close();
    expect(commits.stamp()).toBeUndefined();
  });
});

describe("reads kept while the database is unchanged", () => {
  /** A read that counts how often it really reached SQLite. */
  function countingReads(file: string) {
    const reader = new SQLite(file);
    closers.push(() => reader.close());
    let real = 0;
    const read = (q: CompiledQuery) => {
      real += 1;
      return reader.prepare(q.sql).all(...(q.parameters as unknown[]));
    };
    return { read, realReads: () => real };
  }

  it("answers the same read from memory until someone commits, then reads again", () => {
    const { file, writer, commits } = watchedWalFile();
    const { read, realReads } = countingReads(file);
    const reads = readsWhileUnchanged(read, commits);
    const count = query("select n from counts where id = ?", ["a"]);

    expect(reads(count)).toEqual([{ n: 1 }]);
    expect(reads(count)).toEqual([{ n: 1 }]);
    expect(realReads()).toBe(1);

    commitFromAnotherProcess(file, "update counts set n = 5 where id = 'a'");
    expect(reads(count)).toEqual([{ n: 5 }]);
    writer.prepare("update counts set n = 6 where id = 'a'").run();
    expect(reads(count)).toEqual([{ n: 6 }]);
    expect(realReads()).toBe(3);
  });

  it("keeps each query with its own parameters", () => {
    const { file, writer, commits } = watchedWalFile();
    writer.prepare("insert into counts values ('b', 2)").run();
    const { read } = countingReads(file);
    const reads = readsWhileUnchanged(read, commits);
    expect(reads(query("select n from counts where id = ?", ["a"]))).toEqual([{ n: 1 }]);
    expect(reads(query("select n from counts where id = ?", ["b"]))).toEqual([{ n: 2 }]);
    expect(reads(query("select n * 10 as n from counts where id = ?", ["b"]))).toEqual([{ n: 20 }]);
  });

  it("keeps a read with no parameter, one, or several, and never mixes a value with its written form", () => {
    const commits: WalCommits = { stamp: () => Buffer.from("same"), close: () => {} };
    const reads = readsWhileUnchanged((q) => [{ asked: q.parameters }], commits);
    const select = "select ?";
    const asked = [[], [1], ["1"], [null], ["[null]"], [1, 2], ["[1,2]"]];
    for (const parameters of asked) {
      expect(reads(query(select, parameters)), JSON.stringify(parameters)).toEqual([{ asked: parameters }]);
    }
    for (const parameters of asked) expect(reads(query(select, parameters))).toEqual([{ asked: parameters }]);
  });

  it("hands out rows no caller can change for the next", () => {
    const { file, commits } = watchedWalFile();
    const { read } = countingReads(file);
    const reads = readsWhileUnchanged(read, commits);
    const rows = reads(query("select n from counts")) as { n: number }[];
    expect(() => {
      (rows[0] as { n: number }).n = 99;
    }).toThrow(TypeError);
    expect(reads(query("select n from counts"))).toEqual([{ n: 1 }]);
  });

  it("forgets rows read while a commit landed, since they are newer than their stamp", () => {
    // A stamp taken, then a commit, then the read: the rows belong to the later state.
    let stamp = Buffer.from("one");
    const commits: WalCommits = { stamp: () => stamp, close: () => {} };
    let n = 1;
    const reads = readsWhileUnchanged(() => {
      const rows = [{ n }];
      stamp = Buffer.from(`after ${n}`);
      return rows;
    }, commits);
    const q = query("select n");
    expect(reads(q)).toEqual([{ n: 1 }]);
    n = 2;
    expect(reads(q)).toEqual([{ n: 2 }]);
  });

  it("reads every time where the stamp cannot be told", () => {
    const commits: WalCommits = { stamp: () => undefined, close: () => {} };
    let real = 0;
    const reads = readsWhileUnchanged(() => [{ n: ++real }], commits);
    reads(query("select n"));
    expect(reads(query("select n"))).toEqual([{ n: 2 }]);
  });

  it("holds no more than its limit", () => {
    const commits: WalCommits = { stamp: () => Buffer.from("same"), close: () => {} };
    let real = 0;
    const reads = readsWhileUnchanged(
      () => {
        real += 1;
        return [{}];
      },
      commits,
      2,
    );
    for (const id of ["a", "b", "c", "a"]) reads(query("select ?", [id]));
    // "c" made room by forgetting everything; "a" was read again.
    expect(real).toBe(4);
  });
});

describe("the shop's reads of every page view on a SQLite file", () => {
  it("see a commit from another process on the very next read", async () => {
    const folder = mkdtempSync(join(tmpdir(), "shop-wal-"));
    folders.push(folder);
    const file = join(folder, "shop.db");
    const database = openDatabase(`sqlite://${file}`);
    closers.push(() => void database.close());
    await database.db.schema
      .createTable("counts")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("n", "integer")
      .execute();
    await database.db
      .insertInto("counts" as never)
      .values({ id: "a", n: 1 } as never)
      .execute();
    const count = query("select n from counts where id = ?", ["a"]);
    expect(await database.readCommitted(count)).toEqual([{ n: 1 }]);
    expect(await database.readCommitted(count)).toEqual([{ n: 1 }]);
    commitFromAnotherProcess(file, "update counts set n = 2 where id = 'a'");
    expect(await database.readCommitted(count)).toEqual([{ n: 2 }]);
  });

  it("give the same commit mark until something is committed, by the shop or by another process", async () => {
    const folder = mkdtempSync(join(tmpdir(), "shop-wal-"));
    folders.push(folder);
    const file = join(folder, "shop.db");
    const database = openDatabase(`sqlite://${file}`);
    closers.push(() => void database.close());
    await database.db.schema.createTable("counts").addColumn("n", "integer").execute();
    const first = database.commitMark();
    expect(first).toEqual(expect.any(String));
    await database.readCommitted(query("select n from counts", []));
    expect(database.commitMark()).toBe(first);

    const pending = await transactionHeldOpen(database.db, (trx) =>
      trx
        .insertInto("counts" as never)
        .values({ n: 1 } as never)
        .execute(),
    );
    // Written but not committed: no one else can see it yet.
    expect(database.commitMark()).toBe(first);
    await pending.commit();
    const second = database.commitMark();
    expect(second).not.toBe(first);

    commitFromAnotherProcess(file, "update counts set n = 2");
    expect(database.commitMark()).not.toBe(second);
  });
});

describe("the commit mark where the database cannot tell", () => {
  it("is undefined for a database in memory", async () => {
    const database = openDatabase("sqlite://:memory:");
    closers.push(() => void database.close());
    expect(database.commitMark()).toBeUndefined();
  });
});
