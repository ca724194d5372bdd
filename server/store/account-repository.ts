import { type Kysely, PostgresAdapter, type Selectable } from "kysely";
import type { Locale } from "../i18n/locales.ts";
import { enqueueMail, type OutgoingMail } from "../mail/outbox.ts";
import { type PageViewReads, readsThrough } from "./database.ts";
import { hashLinkToken, isLinkToken, newLinkToken } from "./link-token.ts";
import type { Schema } from "./schema.ts";

export interface Account {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  locale: Locale;
  /** Undefined for an account whose address was never confirmed (made before sign-up links). */
  emailConfirmedAt: string | undefined;
  /** The shopper id its photos and projects carry. */
  ownerId: string;
  cartId: string | undefined;
  createdAt: string;
}

/** "claim-order": adding a guest's order to the account, mailed to the order's address. */
export type TokenPurpose = "reset-password" | "change-email" | "claim-order";

/** A link's token as its page sees it. */
export type TokenLink =
  | { state: "valid"; account: Account; newEmail: string | undefined; orderId: number | undefined }
  | { state: "spent" }
  | { state: "unknown" };

export interface AccountRepository {
  get(id: string): Promise<Account | undefined>;
  findByEmail(email: string): Promise<Account | undefined>;
  /**
   * A link for the account (`purpose`), valid for `hours`, its mail queued in the same
   * transaction; at most `perHour` such mails an hour per account. False when none was
   * made (over that number).
   */
  issueToken(
    accountId: string,
    purpose: TokenPurpose,
    mail: (token: string) => OutgoingMail,
    options: { at: Date; perHour: number; newEmail?: string; orderId?: number; alsoMail?: OutgoingMail },
  ): Promise<boolean>;
  /** What a token leads to, unused and younger than `hours`; without using it. */
  tokenLink(token: string, purpose: TokenPurpose, at: Date, hours: number): Promise<TokenLink>;
  /**
   * Uses a token once, running `use` in the same transaction with the account (locked). A
   * token used, too old, of another purpose or unknown: undefined, and nothing ran.
   */
  redeemToken<T>(
    token: string,
    purpose: TokenPurpose,
    at: Date,
    hours: number,
    use: (
      trx: Kysely<Schema>,
      account: Account,
      newEmail: string | undefined,
      orderId: number | undefined,
    ) => Promise<T>,
  ): Promise<T | undefined>;
  /** A new password; every session of the account ends but `keepSession` (the browser that changed it). */
  setPassword(
    db: Kysely<Schema>,
    accountId: string,
    passwordHash: string,
    at: Date,
    keepSession?: string,
  ): Promise<void>;
  /**
   * Stores a new hash of the same password (one made at today's cost), only while the
   * stored one is still `previous`: a password changed in the meantime is never overwritten.
   */
  replacePasswordHash(id: string, previous: string, next: string): Promise<boolean>;
  /**
   * The accounts whose cart is `cartId` and whose photos carry `ownerId`, when any: what a
   * browser's cookies name may be an account's, reachable only through its session.
   */
  holdersOf(holdings: { cartId?: string; ownerId?: string }): Promise<{ cart?: string; owner?: string }>;
  /** The account's cart, for every browser it signs in on. */
  setCart(db: Kysely<Schema>, accountId: string, cartId: string): Promise<void>;
  /**
   * A number that changes whenever what the account's pages show changes, or one of its
   * sessions ends (migration 0016): 0 for an account that never changed.
   */
  revision(accountId: string): Promise<number>;
}

type AccountRow = Selectable<Schema["accounts"]>;

/** One account per address, however it is typed: "Anna@Example.nl " is anna@example.nl. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

export function accountOf(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    passwordHash: row.password_hash,
    locale: row.locale === "de" ? "de" : "nl",
    emailConfirmedAt: row.email_confirmed_at ?? undefined,
    ownerId: row.owner_id,
    cartId: row.cart_id ?? undefined,
    createdAt: row.created_at,
  };
}

const hourMs = 3_600_000;

export function accountRepository(
  db: Kysely<Schema>,
  /** Where the reads of every page view go (database.ts); by default through Kysely. */
  reads: PageViewReads = readsThrough(db),
): AccountRepository {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Asked by the check of every kept account page: compiled once with a stand-in id.
  const revisionQuery = db
    .selectFrom("account_revisions")
    .select("revision")
    .where("account_id", "=", "")
    .compile();
  // Asked before every route that gets a cart or shopper cookie not of the signed-in account
  // (account-holdings.ts): a read of every page view, so compiled once and read as those are.
  // An id not asked for is bound as null, which equals nothing.
  const holdersQuery = db
    .selectFrom("accounts")
    .select(["id", "cart_id", "owner_id"])
    .where((eb) => eb.or([eb("cart_id", "=", ""), eb("owner_id", "=", "")]))
    .compile();

  const lockedAccount = async (trx: Kysely<Schema>, id: string) => {
    const read = trx.selectFrom("accounts").selectAll().where("id", "=", id);
    const row = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
    return row ? accountOf(row) : undefined;
  };

  const tokenRow = (trx: Kysely<Schema>, token: string, purpose: TokenPurpose) => {
    const read = trx
      .selectFrom("account_tokens")
      .selectAll()
      .where("token_hash", "=", hashLinkToken(token))
      .where("purpose", "=", purpose);
    return (isPostgres ? read.forUpdate() : read).executeTakeFirst();
  };

  const fresh = (row: { created_at: string; used_at: string | null }, at: Date, hours: number) =>
    !row.used_at && Date.parse(row.created_at) > at.getTime() - hours * hourMs;

  return {
    async get(id) {
      const row = await db.selectFrom("accounts").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? accountOf(row) : undefined;
    },

    async findByEmail(email) {
      const row = await db
        .selectFrom("accounts")
        .selectAll()
        .where("email_key", "=", emailKey(email))
        .executeTakeFirst();
      return row ? accountOf(row) : undefined;
    },

    async issueToken(accountId, purpose, mail, options) {
      const { token, hash } = newLinkToken();
      return db.transaction().execute(async (trx) => {
        if (!(await lockedAccount(trx, accountId))) return false;
        const recent = await trx
          .selectFrom("account_tokens")
          .select("token_hash")
          .where("account_id", "=", accountId)
          .where("purpose", "=", purpose)
          .where("created_at", ">", new Date(options.at.getTime() - hourMs).toISOString())
          .execute();
        if (recent.length >= options.perHour) return false;
        await trx
          .insertInto("account_tokens")
          .values({
            token_hash: hash,
            account_id: accountId,
            purpose,
            new_email: options.newEmail ?? null,
            order_id: options.orderId ?? null,
            created_at: options.at.toISOString(),
            used_at: null,
          })
          .execute();
        await enqueueMail(trx, mail(token), options.at);
        if (options.alsoMail) await enqueueMail(trx, options.alsoMail, options.at);
        return true;
      });
    },

    async tokenLink(token, purpose, at, hours) {
      if (!isLinkToken(token)) return { state: "unknown" };
      const row = await tokenRow(db, token, purpose);
      if (!row) return { state: "unknown" };
      if (!fresh(row, at, hours)) return { state: "spent" };
      const account = await db
        .selectFrom("accounts")
        .selectAll()
        .where("id", "=", row.account_id)
        .executeTakeFirst();
      return account
        ? {
            state: "valid",
            account: accountOf(account),
            newEmail: row.new_email ?? undefined,
            orderId: row.order_id === null ? undefined : Number(row.order_id),
          }
        : { state: "unknown" };
    },

    async redeemToken(token, purpose, at, hours, use) {
      if (!isLinkToken(token)) return undefined;
      return db.transaction().execute(async (trx) => {
        const row = await tokenRow(trx, token, purpose);
        if (!row || !fresh(row, at, hours)) return undefined;
        const account = await lockedAccount(trx, row.account_id);
        if (!account) return undefined;
        await trx
          .updateTable("account_tokens")
          .set({ used_at: at.toISOString() })
          .where("token_hash", "=", row.token_hash)
          .execute();
        return use(
          trx,
          account,
          row.new_email ?? undefined,
          row.order_id === null ? undefined : Number(row.order_id),
        );
      });
    },

    async setPassword(trx, accountId, passwordHash, at, keepSession) {
      await trx
        .updateTable("accounts")
        .set({ password_hash: passwordHash, updated_at: at.toISOString() })
        .where("id", "=", accountId)
        .execute();
      let ending = trx.deleteFrom("sessions").where("account_id", "=", accountId);
      if (keepSession) ending = ending.where("token_hash", "!=", keepSession);
      await ending.execute();
      // Links to reset the old password are of no use any more.
      await trx
        .updateTable("account_tokens")
        .set({ used_at: at.toISOString() })
        .where("account_id", "=", accountId)
        .where("purpose", "=", "reset-password")
        .where("used_at", "is", null)
        .execute();
    },

    async replacePasswordHash(id, previous, next) {
      const result = await db
        .updateTable("accounts")
        .set({ password_hash: next })
        .where("id", "=", id)
        .where("password_hash", "=", previous)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async holdersOf({ cartId, ownerId }) {
      if (!cartId && !ownerId) return {};
      const rows = await reads.readCommitted<{ id: string; cart_id: string | null; owner_id: string }>({
        ...holdersQuery,
        parameters: [cartId || null, ownerId || null],
      });
      const cart = rows.find((row) => cartId && row.cart_id === cartId)?.id;
      const owner = rows.find((row) => ownerId && row.owner_id === ownerId)?.id;
      return { ...(cart ? { cart } : {}), ...(owner ? { owner } : {}) };
    },

    async setCart(trx, accountId, cartId) {
      await trx.updateTable("accounts").set({ cart_id: cartId }).where("id", "=", accountId).execute();
    },

    async revision(accountId) {
      const [row] = await reads.readCommitted<{ revision: number }>({
        ...revisionQuery,
        parameters: [accountId],
      });
      return Number(row?.revision ?? 0);
    },
  };
}
