import { type Kysely, PostgresAdapter, type Selectable } from "kysely";
import { type DeliveryCountry, isDeliveryCountry } from "../domain/postcode.ts";
import type { Locale } from "../i18n/locales.ts";
import { enqueueMail, type OutgoingMail } from "../mail/outbox.ts";
import { type Account, accountOf, emailKey } from "./account-repository.ts";
import { addressBookRepository } from "./address-book-repository.ts";
import { hashLinkToken, isLinkToken, newLinkToken } from "./link-token.ts";
import { orderRepository } from "./order-repository.ts";
import { moveSignupPhotos } from "./photo-ownership.ts";
import { randomId } from "./random-id.ts";
import type { Schema } from "./schema.ts";
import {
  offerOf,
  type PlanChoice,
  type Subscription,
  type SubscriptionRepository,
} from "./subscription-repository.ts";

/**
 * Where a sign-up for a subscription said its subscriber lives. Migration 0026 gave every
 * such row its language's country, and every sign-up since says it, so the fallback is for
 * a row that names none: the country of its language, as before that migration.
 */
function countryOfSignup(row: { country: string | null; locale: string }): DeliveryCountry {
  return isDeliveryCountry(row.country) ? row.country : row.locale === "de" ? "DE" : "NL";
}

/** What a sign-up form was given, password already hashed. */
export interface NewSignup {
  name: string;
  email: string;
  passwordHash: string;
  locale: Locale;
  /**
   * The shopper id minted for this sign-up when it was asked for (its browser's shopper
   * cookie from then on): what is made under it belongs to the sign-up, and goes to its
   * account when the link is used (ADR 0094). Never a browser's earlier id, which other
   * people at that browser may share.
   */
  ownerId: string | undefined;
  /** For a subscription: the plan at the prices shown, and where the subscriber lives (its VAT follows that). */
  plan?: PlanChoice & { country: DeliveryCountry };
  /** "Bewaar je gegevens" on an order's page: the order whose address the account keeps. */
  orderId?: number;
}

/** The mails a sign-up may lead to; which one goes is never told to the form. */
export interface SignupMails {
  /** The link that confirms the address. */
  confirm: (token: string) => OutgoingMail;
  /**
   * Instead of a link, when the address already has what the sign-up asks for (an account;
   * for a subscription sign-up, an active subscription): to the address as stored.
   */
  alreadyKnown: (address: string) => OutgoingMail;
}

/** A sign-up link as its page sees it. */
export type SignupLink =
  | {
      state: "valid";
      signup: Pick<NewSignup, "name" | "email" | "locale" | "plan" | "orderId">;
    }
  /** Used already: the browser that used it may go on (to pay, or to its account). */
  | { state: "used"; accountId: string | undefined; subscriptionId: string | undefined }
  | { state: "expired" }
  | { state: "unknown" };

export type ConfirmResult =
  | {
      kind: "confirmed";
      account: Account;
      /** False when the address already had an account: the sign-up joined it. */
      newAccount: boolean;
      /** For a subscription sign-up: the subscription, waiting for its first payment. */
      subscription?: Subscription;
    }
  /** A subscription sign-up for an account whose subscription is active: nothing changed. */
  | { kind: "already-active"; account: Account; subscription: Subscription }
  | { kind: "used"; accountId: string | undefined; subscriptionId: string | undefined }
  | { kind: "expired" }
  | { kind: "unknown" };

export interface SignupRepository {
  /**
   * A sign-up from a form: stores it and mails the link, at most `signupMailsPerHour` an hour
   * per address; or, when the address already has what it asks for, mails the address so
   * instead, at most once an hour. The caller answers every sign-up alike.
   */
  request(signup: NewSignup, mails: SignupMails, at: Date): Promise<void>;
  /** What a link leads to, without using it. */
  link(token: string, at: Date): Promise<SignupLink>;
  /**
   * Uses a link, once: the address is confirmed, so its account is made (or an existing one,
   * now confirmed, takes the sign-up), with the subscription or the order's address it asked
   * for, and the photos and photo books made under the sign-up's own shopper id. A new
   * account gets an owner id of its own: never one a browser held as a guest.
   */
  confirm(token: string, at: Date): Promise<ConfirmResult>;
  /** Removes sign-ups made before `before`, used or not. Returns how many. */
  deleteBefore(before: Date): Promise<number>;
}

type SignupRow = Selectable<Schema["signups"]>;

/** Links mailed to one address in an hour: enough for typos and second tries, not a flood. */
export const signupMailsPerHour = 3;
/** A sign-up link works this long. */
export const signupLinkHours = 24;
/** How often an address hears that someone tried to sign up with it. */
const alreadyKnownMailEveryMs = 60 * 60 * 1000;
const hourMs = 3_600_000;

export function signupRepository(
  db: Kysely<Schema>,
  subscriptions: SubscriptionRepository,
): SignupRepository {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  const lockedAccount = async (trx: Kysely<Schema>, key: string) => {
    const read = trx.selectFrom("accounts").selectAll().where("email_key", "=", key);
    const row = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
    return row ? accountOf(row) : undefined;
  };

  const markUsed = (
    trx: Kysely<Schema>,
    tokenHash: string,
    at: Date,
    made: { accountId: string; subscriptionId?: string },
  ) =>
    trx
      .updateTable("signups")
      .set({
        used_at: at.toISOString(),
        account_id: made.accountId,
        subscription_id: made.subscriptionId ?? null,
      })
      .where("token_hash", "=", tokenHash)
      .execute();

  return {
    async request(signup, mails, at) {
      const key = emailKey(signup.email);
      const { token, hash } = newLinkToken();
      await db.transaction().execute(async (trx) => {
        const account = await lockedAccount(trx, key);
        const subscription =
          account && signup.plan ? await subscriptions.forAccount(account.id, trx) : undefined;
        // An account alone is "known" once it exists; a subscription once it is active.
        const known = signup.plan
          ? subscription?.status === "active"
          : account?.emailConfirmedAt !== undefined;
        if (account && known) {
          const mail = mails.alreadyKnown(account.email);
          const recent = await trx
            .selectFrom("outbox")
            .select("id")
            .where("kind", "=", mail.kind)
            .where("to_address", "=", mail.to)
            .where("created_at", ">", new Date(at.getTime() - alreadyKnownMailEveryMs).toISOString())
            .executeTakeFirst();
          if (!recent) await enqueueMail(trx, mail, at);
          return;
        }
        const recent = await trx
          .selectFrom("signups")
          .select("token_hash")
          .where("email_key", "=", key)
          .where("created_at", ">", new Date(at.getTime() - hourMs).toISOString())
          .execute();
        if (recent.length >= signupMailsPerHour) return;
        await trx
          .insertInto("signups")
          .values({
            token_hash: hash,
            email: signup.email.trim(),
            email_key: key,
            name: signup.name,
            plan_id: signup.plan?.planId ?? null,
            monthly_cents: signup.plan?.monthlyCents ?? null,
            offer_cents: signup.plan?.offer?.monthlyCents ?? null,
            offer_months: signup.plan?.offer?.months ?? null,
            country: signup.plan?.country ?? null,
            password_hash: signup.passwordHash,
            locale: signup.locale,
            owner_id: signup.ownerId ?? null,
            order_id: signup.orderId ?? null,
            created_at: at.toISOString(),
            used_at: null,
            account_id: null,
            subscription_id: null,
          })
          .execute();
        await enqueueMail(trx, mails.confirm(token), at);
      });
    },

    async link(token, at) {
      if (!isLinkToken(token)) return { state: "unknown" };
      const row = await db
        .selectFrom("signups")
        .selectAll()
        .where("token_hash", "=", hashLinkToken(token))
        .executeTakeFirst();
      if (!row) return { state: "unknown" };
      if (row.used_at) {
        return {
          state: "used",
          accountId: row.account_id ?? undefined,
          subscriptionId: row.subscription_id ?? undefined,
        };
      }
      if (Date.parse(row.created_at) <= at.getTime() - signupLinkHours * hourMs) return { state: "expired" };
      return {
        state: "valid",
        signup: {
          name: row.name,
          email: row.email,
          locale: row.locale === "de" ? "de" : "nl",
          ...(row.plan_id && row.monthly_cents !== null
            ? {
                plan: {
                  planId: row.plan_id,
                  monthlyCents: Number(row.monthly_cents),
                  offer: offerOf(row),
                  country: countryOfSignup(row),
                },
              }
            : {}),
          ...(row.order_id !== null ? { orderId: Number(row.order_id) } : {}),
        },
      };
    },

    async confirm(token, at) {
      if (!isLinkToken(token)) return { kind: "unknown" };
      return db.transaction().execute(async (trx): Promise<ConfirmResult> => {
        const read = trx.selectFrom("signups").selectAll().where("token_hash", "=", hashLinkToken(token));
        const signup = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
        if (!signup) return { kind: "unknown" };
        if (signup.used_at) {
          return {
            kind: "used",
            accountId: signup.account_id ?? undefined,
            subscriptionId: signup.subscription_id ?? undefined,
          };
        }
        if (Date.parse(signup.created_at) <= at.getTime() - signupLinkHours * hourMs)
          return { kind: "expired" };

        const existing = await lockedAccount(trx, signup.email_key);
        if (existing) return finishExisting(trx, existing, signup, at);
        // Two links for one new address used at the same moment: the second finds the first's account.
        const inserted = await trx
          .insertInto("accounts")
          .values({
            id: randomId(),
            email: signup.email,
            email_key: signup.email_key,
            name: signup.name,
            password_hash: signup.password_hash,
            locale: signup.locale,
            email_confirmed_at: at.toISOString(),
            owner_id: randomId(),
            cart_id: null,
            created_at: at.toISOString(),
            updated_at: at.toISOString(),
          })
          .onConflict((oc) => oc.column("email_key").doNothing())
          .returning("id")
          .executeTakeFirst();
        const account = await lockedAccount(trx, signup.email_key);
        if (!account) return { kind: "unknown" };
        if (!inserted) return finishExisting(trx, account, signup, at);
        return finish(trx, account, signup, at, true);
      });
    },

    async deleteBefore(before) {
      const result = await db
        .deleteFrom("signups")
        .where("created_at", "<", before.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };

  /**
   * The address already had an account. The link proves the address is the reader's: an
   * account never confirmed (one made before links existed, maybe by someone else) takes the
   * sign-up's password and loses every session; a confirmed one keeps its own password.
   */
  async function finishExisting(
    trx: Kysely<Schema>,
    account: Account,
    signup: SignupRow,
    at: Date,
  ): Promise<ConfirmResult> {
    if (account.emailConfirmedAt === undefined) {
      await trx
        .updateTable("accounts")
        .set({
          password_hash: signup.password_hash,
          name: signup.name,
          email_confirmed_at: at.toISOString(),
          updated_at: at.toISOString(),
        })
        .where("id", "=", account.id)
        .execute();
      await trx.deleteFrom("sessions").where("account_id", "=", account.id).execute();
      const confirmed = await lockedAccount(trx, signup.email_key);
      if (confirmed) account = confirmed;
    }
    return finish(trx, account, signup, at, false);
  }

  /**
   * What the sign-up asked for besides the account: a subscription, or an order's address;
   * and what was made under its own shopper id.
   */
  async function finish(
    trx: Kysely<Schema>,
    account: Account,
    signup: SignupRow,
    at: Date,
    newAccount: boolean,
  ): Promise<ConfirmResult> {
    let subscription: Subscription | undefined;
    if (signup.plan_id && signup.monthly_cents !== null) {
      const plan = {
        planId: signup.plan_id,
        monthlyCents: Number(signup.monthly_cents),
        offer: offerOf(signup),
      };
      const country = countryOfSignup(signup);
      // Its page is shown to the browsers signed in to the account, whose shopper cookie is the account's.
      const started = await subscriptions.startFor(trx, account, plan, account.ownerId, at, country);
      if (started.kind === "already-active") {
        await markUsed(trx, signup.token_hash, at, {
          accountId: account.id,
          subscriptionId: started.subscription.id,
        });
        return { kind: "already-active", account, subscription: started.subscription };
      }
      subscription = started.subscription;
    }
    if (signup.order_id !== null) {
      const order = await orderRepository(trx).get(Number(signup.order_id));
      // The order's own address (the sign-up came from its page): it joins the account.
      if (order && emailKey(order.address.email) === emailKey(account.email)) {
        await trx.updateTable("orders").set({ account_id: account.id }).where("id", "=", order.id).execute();
        await addressBookRepository(trx).save(trx, account.id, order.address, at);
      }
    }
    if (signup.owner_id) await moveSignupPhotos(trx, signup.owner_id, account.ownerId);
    await markUsed(trx, signup.token_hash, at, {
      accountId: account.id,
      ...(subscription ? { subscriptionId: subscription.id } : {}),
    });
    return { kind: "confirmed", account, newAccount, ...(subscription ? { subscription } : {}) };
  }
}
