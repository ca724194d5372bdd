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
  // Per statement, its reads by parameter: the SQL text is the same string on every call
  // (the repositories compile it once), so finding it costs no hashing of a fresh key.
  const kept = new Map<string, KeptReads>();
  let size = 0;
  let keptAt: Buffer | undefined;
  const forget = () => {
    kept.clear();
    size = 0;
  };
  const readsOf = (sql: string) => {
    let reads = kept.get(sql);
    if (!reads) {
      reads = { byOne: new Map(), byAll: new Map() };
      kept.set(sql, reads);
    }
    return reads;
  };

  return (query) => {
    const stamp = commits.stamp();
    if (!stamp) {
      keptAt = undefined;
      forget();
      return read(query);
    }
    if (!keptAt?.equals(stamp)) {
      forget();
      keptAt = Buffer.from(stamp);
    }
    const { parameters } = query;
    // One string or number, the common case, is its own key; anything else is written out.
    const only = parameters.length === 1 ? parameters[0] : undefined;
    const single = typeof only === "string" || typeof only === "number";
    const written = single ? "" : JSON.stringify(parameters);
    const rows = single ? readsOf(query.sql).byOne.get(only) : readsOf(query.sql).byAll.get(written);
    if (rows) return rows;
    const fresh = Object.freeze(read(query).map((row) => Object.freeze(row)));
    if (size >= maxEntries) forget();
    if (single) readsOf(query.sql).byOne.set(only, fresh);
    else readsOf(query.sql).byAll.set(written, fresh);
    size += 1;
    return fresh;
  };
}

interface KeptReads {
  byOne: Map<string | number, readonly unknown[]>;
  byAll: Map<string, readonly unknown[]>;
}
