import { type Kysely, sql } from "kysely";
import type { Database } from "./database.ts";
import type { Schema } from "./schema.ts";

/**
 * Any number: it only has to be the same for every instance. The schema is the lock's second
 * half, so two shops (or two test runs) in one database never hold each other up.
 */
const lockKey = 604_060;

export type LockedRun<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` while no other instance of the shop runs it: on PostgreSQL under a session
 * advisory lock held on one connection for the whole of `work`, which gets that connection.
 * An instance that finds the lock taken does nothing ({ ran: false }): the holder does the
 * work. Should the process die, its connection closes and the lock goes with it. SQLite
 * serves one process only, so there `work` simply runs.
 */
export async function withCleanUpLock<T>(
  database: Database,
  work: (db: Kysely<Schema>) => Promise<T>,
): Promise<LockedRun<T>> {
  return withJobLock(database, lockKey, work);
}

/** The subscriptions' renewal job's lock: the same kind as the clean-up's, its own key. */
export const renewalLockKey = 604_061;

/** withCleanUpLock for another job, under its own key (renewalLockKey). */
export async function withJobLock<T>(
  database: Database,
  key: number,
  work: (db: Kysely<Schema>) => Promise<T>,
): Promise<LockedRun<T>> {
  const lockKey = key;
  if (database.dialect !== "postgres") return { ran: true, value: await work(database.db) };
  return database.db.connection().execute(async (connection): Promise<LockedRun<T>> => {
    const { rows } = await sql<{ locked: boolean }>`
      select pg_try_advisory_lock(${lockKey}, hashtext(current_schema())) as locked`.execute(connection);
    if (!rows[0]?.locked) return { ran: false };
    try {
      return { ran: true, value: await work(connection) };
    } finally {
      await sql`select pg_advisory_unlock(${lockKey}, hashtext(current_schema()))`.execute(connection);
    }
  });
}
