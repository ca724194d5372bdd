import type { Kysely } from "kysely";
import { needsTouch, type SessionLifetimes, sessionEnd, sessionHolds } from "../domain/session-rules.ts";
import { type Account, accountOf } from "./account-repository.ts";
import { type PageViewReads, readsThrough } from "./database.ts";
import { hashLinkToken, newLinkToken } from "./link-token.ts";
import type { Schema } from "./schema.ts";

export interface Session {
  /** sha256 of the cookie's token: names the session without being it. */
  tokenHash: string;
  account: Account;
  /**
   * When it stops holding unless used again (its idle or absolute end): until then a kept
   * page's check need not resolve it again (server/http/caching/page-shows.ts).
   */
  endsAt: Date;
  /**
   * The account's revision (migration 0016), read with the session in one statement: a
   * change to the account after this was read, the session's own end included, raises it.
   */
  accountRevision: number;
}

export interface SessionRepository {
  /** A new session for the account: its token goes in the cookie, only the hash is kept. */
  start(db: Kysely<Schema>, accountId: string, at: Date): Promise<{ token: string; tokenHash: string }>;
  /**
   * The session a cookie's token names, with its account, while it holds (idle and absolute
   * lifetimes); its last use is written at most every few minutes. A session past its end is
   * deleted. Undefined for anything else.
   */
  resolve(token: string, at: Date): Promise<Session | undefined>;
  end(tokenHash: string): Promise<void>;
  /** Every session of the account, on every device: "sign out everywhere". */
  endAll(accountId: string): Promise<number>;
  /** Sessions past their end, for the clean-up job. */
  deleteEnded(at: Date): Promise<number>;
}

export function sessionRepository(
  db: Kysely<Schema>,
  lifetimes: SessionLifetimes,
  /** Where the reads of every page view go (database.ts); by default through Kysely. */
  reads: PageViewReads = readsThrough(db),
): SessionRepository {
  // Asked on every page a signed-in browser sees, and by the checks of its kept pages:
  // compiled once with a stand-in hash, run with each one.
  const byTokenQuery = db
    .selectFrom("sessions")
    .innerJoin("accounts", "accounts.id", "sessions.account_id")
    .leftJoin("account_revisions", "account_revisions.account_id", "accounts.id")
    .selectAll("accounts")
    .select([
      "sessions.created_at as session_created_at",
      "sessions.last_seen_at as session_last_seen_at",
      "account_revisions.revision as account_revision",
    ])
    .where("sessions.token_hash", "=", "")
    .compile();
  type SessionRow = Schema["accounts"] & {
    session_created_at: string;
    session_last_seen_at: string;
    account_revision: number | null;
  };
  const byToken = async (tokenHash: string) =>
    (await reads.readCommitted<SessionRow>({ ...byTokenQuery, parameters: [tokenHash] }))[0];

  return {
    async start(trx, accountId, at) {
      const { token, hash } = newLinkToken();
      await trx
        .insertInto("sessions")
        .values({
          token_hash: hash,
          account_id: accountId,
          created_at: at.toISOString(),
          last_seen_at: at.toISOString(),
          expires_at: new Date(at.getTime() + lifetimes.absoluteMs).toISOString(),
        })
        .execute();
      return { token, tokenHash: hash };
    },

    async resolve(token, at) {
      const tokenHash = hashLinkToken(token);
      const row = await byToken(tokenHash);
      if (!row) return undefined;
      const times = {
        createdAt: new Date(row.session_created_at),
        lastSeenAt: new Date(row.session_last_seen_at),
      };
      if (!sessionHolds(times, at, lifetimes)) {
        await db.deleteFrom("sessions").where("token_hash", "=", tokenHash).execute();
        return undefined;
      }
      if (needsTouch(times, at)) {
        times.lastSeenAt = at;
        await db
          .updateTable("sessions")
          .set({ last_seen_at: at.toISOString() })
          .where("token_hash", "=", tokenHash)
          .execute();
      }
      return {
        tokenHash,
        account: accountOf(row),
        endsAt: sessionEnd(times, lifetimes),
        accountRevision: Number(row.account_revision ?? 0),
      };
    },

    async end(tokenHash) {
      await db.deleteFrom("sessions").where("token_hash", "=", tokenHash).execute();
    },

    async endAll(accountId) {
      const result = await db.deleteFrom("sessions").where("account_id", "=", accountId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteEnded(at) {
      const idleBefore = new Date(at.getTime() - lifetimes.idleMs).toISOString();
      const result = await db
        .deleteFrom("sessions")
        .where((eb) => eb.or([eb("last_seen_at", "<", idleBefore), eb("expires_at", "<=", at.toISOString())]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
