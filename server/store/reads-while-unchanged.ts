import type { CompiledQuery } from "kysely";
import type { WalCommits } from "./wal-commits.ts";

/**
 * The reads of every page view (a cart's count, an account's revision, a session), answered
 * from memory while nothing has been committed to the database since they were read, by any
 * connection of any process: a kept page's check then costs no SQLite read at all, and a
 * change shows on the very next request as before.
 *
 * The stamp is taken before the read it tags: a commit landing in between makes the kept
 * rows newer than their stamp, and the next call, seeing another stamp, forgets them.
 * Rows are frozen, since every caller shares them.
 */
export function readsWhileUnchanged(
  read: (query: CompiledQuery) => unknown[],
  commits: WalCommits,
  maxEntries = 10_000,
): (query: CompiledQuery) => readonly unknown[] {
  const kept = new Map<string, readonly unknown[]>();
  let keptAt: Buffer | undefined;

  return (query) => {
    const stamp = commits.stamp();
    if (!stamp) {
      keptAt = undefined;
      kept.clear();
      return read(query);
    }
    if (!keptAt?.equals(stamp)) {
      kept.clear();
      keptAt = Buffer.from(stamp);
    }
    const key = `${query.sql}\n${JSON.stringify(query.parameters)}`;
    const rows = kept.get(key);
    if (rows) return rows;
    const fresh = Object.freeze(read(query).map((row) => Object.freeze(row)));
    if (kept.size >= maxEntries) kept.clear();
    kept.set(key, fresh);
    return fresh;
  };
}
