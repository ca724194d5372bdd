import { type Kysely, PostgresAdapter, type Selectable } from "kysely";
import { localMoment } from "../domain/delivery-times.ts";
import {
  applySubscriptionEvent,
  isSubscriptionStatus,
  periodEnd,
  type SubscriptionEvent,
  type SubscriptionEventType,
  type SubscriptionStatus,
  subscriptionEventTypes,
} from "../domain/subscription-lifecycle.ts";
import type { IsoDate } from "../domain/working-days.ts";
import { enqueueMail, type OutgoingMail } from "../mail/outbox.ts";
import { hashLinkToken, isLinkToken, newLinkToken } from "./link-token.ts";
import { randomId } from "./random-id.ts";
import type { Schema } from "./schema.ts";

/** What the sign-up form was given, password already hashed. */
export interface NewSubscription {
  ownerId: string | undefined;
  name: string;
  email: string;
  planId: string;
  monthlyCents: number;
  offer: { monthlyCents: number; months: number } | undefined;
  passwordHash: string;
  locale: string;
}

export interface Subscription extends NewSubscription {
  id: string;
  status: SubscriptionStatus;
  /** The last day of the paid period; undefined until the first period is paid. */
  paidUntil: IsoDate | undefined;
  /** When its address was confirmed (a new sign-up's confirmation sets it again). */
  createdAt: string;
}

/** A sign-up link as the confirmation page sees it. */
export type SignupLink =
  | {
      state: "valid";
      signup: Pick<NewSubscription, "name" | "email" | "planId" | "locale" | "monthlyCents" | "offer">;
    }
  /** Used already, for this subscription: the browser that used it may go on to pay. */
  | { state: "used"; subscriptionId: string }
  | { state: "expired" }
  | { state: "unknown" };

export type ConfirmResult =
  | { kind: "confirmed"; subscription: Subscription }
  /** The address already has an active subscription: nothing changed. */
  | { kind: "already-active"; subscription: Subscription }
  | { kind: "used"; subscriptionId: string }
  | { kind: "expired" }
  | { kind: "unknown" };

export type ApplySubscriptionEventResult =
  | { kind: "changed"; from: SubscriptionStatus; to: SubscriptionStatus }
  | { kind: "unchanged"; status: SubscriptionStatus }
  | { kind: "refused"; status: SubscriptionStatus; reason: string }
  | { kind: "unknown-subscription" };

/** Runs in the transaction that changed the subscription, only when it changed (its mail). */
export type AfterSubscriptionChange = (
  trx: Kysely<Schema>,
  subscription: Subscription,
  change: { from: SubscriptionStatus; to: SubscriptionStatus; event: SubscriptionEvent; at: Date },
) => Promise<void>;

export interface SubscriptionTransition {
  from: SubscriptionStatus;
  to: SubscriptionStatus;
  event: SubscriptionEventType;
  paymentId?: string;
  at: string;
}

export interface SubscriptionRepository {
  /**
   * A sign-up from the form. When the address has an active subscription, the address (as
   * that subscription has it) gets `alreadySubscribed` instead, at most once an hour; else a
   * link to confirm it (`confirmMail(token)`), at most `signupMailsPerHour` an hour per
   * address. Nothing of this is told to the caller: the form answers every sign-up alike.
   */
  requestSignup(
    signup: NewSubscription,
    mails: { confirm: (token: string) => OutgoingMail; alreadySubscribed: (address: string) => OutgoingMail },
    at: Date,
  ): Promise<void>;
  /** What a link leads to, without using it. */
  signupLink(token: string, at: Date): Promise<SignupLink>;
  /**
   * Uses a sign-up link, once: the address is confirmed, so its subscription is made (or an
   * unpaid or expired one of the same address takes the new sign-up's plan, name and
   * password) and waits for payment. It belongs to the browser that used the link
   * (`ownerId`, the shopper cookie's id): that browser's page shows it.
   */
  confirmSignup(token: string, ownerId: string, at: Date): Promise<ConfirmResult>;
  get(id: string): Promise<Subscription | undefined>;
  /** The newest subscription taken out from this shopper's browser. */
  latestForOwner(ownerId: string): Promise<Subscription | undefined>;
  /** The subscription of an address, however it is typed: what signing in looks up. */
  findByEmail(email: string): Promise<Subscription | undefined>;
  /**
   * Stores a new hash of the same password (one made at today's cost), only while the
   * stored one is still `previous`: a password changed in the meantime is never overwritten.
   */
  replacePasswordHash(id: string, previous: string, next: string): Promise<boolean>;
  /**
   * Applies `event` under the subscription's row lock, stores the transition and runs
   * `afterChange` in the same transaction: any number of the same event make one change.
   */
  applyEvent(
    id: string,
    event: SubscriptionEvent,
    at: Date,
    options?: { afterChange?: AfterSubscriptionChange },
  ): Promise<ApplySubscriptionEventResult>;
  transitionsOf(id: string): Promise<SubscriptionTransition[]>;
  /** Expires every subscription confirmed before `before` and still unpaid. Returns how many. */
  expireUnpaid(before: Date, options?: { at?: Date; afterChange?: AfterSubscriptionChange }): Promise<number>;
  /** Removes sign-up links made before `before`, used or not. Returns how many. */
  deleteSignupsBefore(before: Date): Promise<number>;
}

/** How often an address hears that someone tried to sign up with it. */
const alreadySubscribedMailEveryMs = 60 * 60 * 1000;
/** Links mailed to one address in an hour: enough for typos and second tries, not a flood. */
export const signupMailsPerHour = 3;
/** A sign-up link works this long. */
export const signupLinkHours = 24;
const hourMs = 3_600_000;

type SubscriptionRow = Selectable<Schema["subscriptions"]>;

function subscriptionOf(row: SubscriptionRow): Subscription {
  if (!isSubscriptionStatus(row.status))
    throw new Error(`subscription ${row.id} has an unknown status "${row.status}"`);
  return {
    id: row.id,
    ownerId: row.owner_id ?? undefined,
    name: row.name,
    email: row.email,
    planId: row.plan_id,
    monthlyCents: Number(row.monthly_cents),
    offer:
      row.offer_cents === null || row.offer_months === null
        ? undefined
        : { monthlyCents: Number(row.offer_cents), months: Number(row.offer_months) },
    passwordHash: row.password_hash,
    locale: row.locale,
    status: row.status,
    paidUntil: row.paid_until ?? undefined,
    createdAt: row.created_at,
  };
}

/** What the first period costs: the offer's monthly price while there is one. */
export function firstPeriodCents(subscription: {
  monthlyCents: number;
  offer?: { monthlyCents: number } | undefined;
}): number {
  return subscription.offer?.monthlyCents ?? subscription.monthlyCents;
}

/** One subscription per address, however it is typed: "Anna@Example.nl " is anna@example.nl. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

function eventType(value: string): SubscriptionEventType {
  const known = subscriptionEventTypes.find((type) => type === value);
  if (!known) throw new Error(`a subscription transition has an unknown event "${value}"`);
  return known;
}

export function subscriptionRepository(db: Kysely<Schema>): SubscriptionRepository {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  const get = async (id: string) => {
    const row = await db.selectFrom("subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? subscriptionOf(row) : undefined;
  };

  /** The row of an address, held until the transaction ends (PostgreSQL; SQLite has one writer). */
  const lockedByKey = async (trx: Kysely<Schema>, key: string) => {
    const read = trx.selectFrom("subscriptions").selectAll().where("email_key", "=", key);
    const row = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
    return row ? subscriptionOf(row) : undefined;
  };

  async function recentMails(trx: Kysely<Schema>, kind: string, to: string, since: Date) {
    const rows = await trx
      .selectFrom("outbox")
      .select("id")
      .where("kind", "=", kind)
      .where("to_address", "=", to)
      .where("created_at", ">", since.toISOString())
      .execute();
    return rows.length;
  }

  async function transition(
    trx: Kysely<Schema>,
    subscription: Subscription,
    event: SubscriptionEvent,
    at: Date,
    afterChange: AfterSubscriptionChange | undefined,
  ): Promise<ApplySubscriptionEventResult> {
    const from = subscription.status;
    const decided = applySubscriptionEvent(from, event);
    if (!decided.ok) return { kind: "refused", status: from, reason: decided.reason };
    if (!decided.changed) {
      if (event.type === "payment_paid") {
        const first = await paidBy(trx, subscription.id);
        if (first && first !== event.paymentId) {
          const reason = `payment ${event.paymentId} was paid for a subscription already paid by ${first}: refund it`;
          return { kind: "refused", status: from, reason };
        }
      }
      return { kind: "unchanged", status: from };
    }
    const to = decided.next;
    const paidUntil = to === "active" ? periodEnd(localMoment(at).date) : subscription.paidUntil;
    await trx
      .updateTable("subscriptions")
      .set({ status: to, paid_until: paidUntil ?? null })
      .where("id", "=", subscription.id)
      .execute();
    await trx
      .insertInto("subscription_transitions")
      .values({
        subscription_id: subscription.id,
        from_status: from,
        to_status: to,
        event: event.type,
        payment_id: "paymentId" in event ? event.paymentId : null,
        at: at.toISOString(),
      })
      .execute();
    await afterChange?.(trx, { ...subscription, status: to, paidUntil }, { from, to, event, at });
    return { kind: "changed", from, to };
  }

  async function applyEvent(
    id: string,
    event: SubscriptionEvent,
    at: Date,
    options: { afterChange?: AfterSubscriptionChange } = {},
  ): Promise<ApplySubscriptionEventResult> {
    return db.transaction().execute(async (trx) => {
      const read = trx.selectFrom("subscriptions").selectAll().where("id", "=", id);
      const row = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
      if (!row) return { kind: "unknown-subscription" };
      return transition(trx, subscriptionOf(row), event, at, options.afterChange);
    });
  }

  const markUsed = (trx: Kysely<Schema>, tokenHash: string, subscriptionId: string, at: Date) =>
    trx
      .updateTable("subscription_signups")
      .set({ used_at: at.toISOString(), subscription_id: subscriptionId })
      .where("token_hash", "=", tokenHash)
      .execute();

  return {
    async requestSignup(signup, mails, at) {
      const key = emailKey(signup.email);
      const { token, hash } = newLinkToken();
      await db.transaction().execute(async (trx) => {
        const existing = await lockedByKey(trx, key);
        if (existing?.status === "active") {
          const mail = mails.alreadySubscribed(existing.email);
          const since = new Date(at.getTime() - alreadySubscribedMailEveryMs);
          if ((await recentMails(trx, mail.kind, mail.to, since)) === 0) await enqueueMail(trx, mail, at);
          return;
        }
        const since = new Date(at.getTime() - hourMs).toISOString();
        const recent = await trx
          .selectFrom("subscription_signups")
          .select("token_hash")
          .where("email_key", "=", key)
          .where("created_at", ">", since)
          .execute();
        if (recent.length >= signupMailsPerHour) return;
        await trx
          .insertInto("subscription_signups")
          .values({
            token_hash: hash,
            email: signup.email.trim(),
            email_key: key,
            name: signup.name,
            plan_id: signup.planId,
            monthly_cents: signup.monthlyCents,
            offer_cents: signup.offer?.monthlyCents ?? null,
            offer_months: signup.offer?.months ?? null,
            password_hash: signup.passwordHash,
            locale: signup.locale,
            owner_id: signup.ownerId ?? null,
            created_at: at.toISOString(),
            used_at: null,
            subscription_id: null,
          })
          .execute();
        await enqueueMail(trx, mails.confirm(token), at);
      });
    },

    async signupLink(token, at) {
      if (!isLinkToken(token)) return { state: "unknown" };
      const row = await db
        .selectFrom("subscription_signups")
        .selectAll()
        .where("token_hash", "=", hashLinkToken(token))
        .executeTakeFirst();
      if (!row) return { state: "unknown" };
      if (row.used_at && row.subscription_id) return { state: "used", subscriptionId: row.subscription_id };
      if (row.used_at || Date.parse(row.created_at) <= at.getTime() - signupLinkHours * hourMs) {
        return { state: "expired" };
      }
      return {
        state: "valid",
        signup: {
          name: row.name,
          email: row.email,
          planId: row.plan_id,
          locale: row.locale,
          monthlyCents: Number(row.monthly_cents),
          offer:
            row.offer_cents === null || row.offer_months === null
              ? undefined
              : { monthlyCents: Number(row.offer_cents), months: Number(row.offer_months) },
        },
      };
    },

    async confirmSignup(token, ownerId, at) {
      if (!isLinkToken(token)) return { kind: "unknown" };
      return db.transaction().execute(async (trx): Promise<ConfirmResult> => {
        const read = trx
          .selectFrom("subscription_signups")
          .selectAll()
          .where("token_hash", "=", hashLinkToken(token));
        const signup = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
        if (!signup) return { kind: "unknown" };
        if (signup.used_at) {
          return signup.subscription_id
            ? { kind: "used", subscriptionId: signup.subscription_id }
            : { kind: "expired" };
        }
        if (Date.parse(signup.created_at) <= at.getTime() - signupLinkHours * hourMs)
          return { kind: "expired" };

        const details = {
          owner_id: ownerId,
          name: signup.name,
          email: signup.email,
          plan_id: signup.plan_id,
          monthly_cents: signup.monthly_cents,
          offer_cents: signup.offer_cents,
          offer_months: signup.offer_months,
          password_hash: signup.password_hash,
          locale: signup.locale,
          created_at: at.toISOString(),
        };

        let current = await lockedByKey(trx, signup.email_key);
        if (!current) {
          const inserted = await trx
            .insertInto("subscriptions")
            .values({
              id: randomId(),
              email_key: signup.email_key,
              ...details,
              status: "awaiting_payment",
              paid_until: null,
            })
            .onConflict((oc) => oc.column("email_key").doNothing())
            .returning("id")
            .executeTakeFirst();
          // Another link for the same address was used at this very moment: go on with its row.
          current = inserted ? undefined : await lockedByKey(trx, signup.email_key);
          if (inserted) {
            await markUsed(trx, signup.token_hash, inserted.id, at);
            const made = await trx
              .selectFrom("subscriptions")
              .selectAll()
              .where("id", "=", inserted.id)
              .executeTakeFirstOrThrow();
            return { kind: "confirmed", subscription: subscriptionOf(made) };
          }
        }
        if (!current) return { kind: "unknown" };
        await markUsed(trx, signup.token_hash, current.id, at);
        if (current.status === "active") return { kind: "already-active", subscription: current };
        if (current.status === "expired")
          await transition(trx, current, { type: "restarted" }, at, undefined);
        await trx.updateTable("subscriptions").set(details).where("id", "=", current.id).execute();
        const updated = await trx
          .selectFrom("subscriptions")
          .selectAll()
          .where("id", "=", current.id)
          .executeTakeFirstOrThrow();
        return { kind: "confirmed", subscription: subscriptionOf(updated) };
      });
    },

    get,

    async latestForOwner(ownerId) {
      const row = await db
        .selectFrom("subscriptions")
        .selectAll()
        .where("owner_id", "=", ownerId)
        .orderBy("created_at", "desc")
        .executeTakeFirst();
      return row ? subscriptionOf(row) : undefined;
    },

    async findByEmail(email) {
      const row = await db
        .selectFrom("subscriptions")
        .selectAll()
        .where("email_key", "=", emailKey(email))
        .executeTakeFirst();
      return row ? subscriptionOf(row) : undefined;
    },

    async replacePasswordHash(id, previous, next) {
      const result = await db
        .updateTable("subscriptions")
        .set({ password_hash: next })
        .where("id", "=", id)
        .where("password_hash", "=", previous)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    applyEvent,

    async transitionsOf(id) {
      const rows = await db
        .selectFrom("subscription_transitions")
        .select(["from_status", "to_status", "event", "payment_id", "at"])
        .where("subscription_id", "=", id)
        .orderBy("id")
        .execute();
      return rows.flatMap((row) =>
        isSubscriptionStatus(row.from_status) && isSubscriptionStatus(row.to_status)
          ? [
              {
                from: row.from_status,
                to: row.to_status,
                event: eventType(row.event),
                ...(row.payment_id ? { paymentId: row.payment_id } : {}),
                at: row.at,
              },
            ]
          : [],
      );
    },

    async expireUnpaid(before, options = {}) {
      const at = options.at ?? new Date();
      const due = await db
        .selectFrom("subscriptions")
        .select("id")
        .where("status", "=", "awaiting_payment")
        .where("created_at", "<", before.toISOString())
        .orderBy("created_at")
        .execute();
      let expired = 0;
      // One short transaction each, as for orders: a payment arriving for one waits only for it.
      for (const { id } of due) {
        const result = await applyEvent(id, { type: "unpaid_expired" }, at, options);
        if (result.kind === "changed") expired++;
      }
      return expired;
    },

    async deleteSignupsBefore(before) {
      const result = await db
        .deleteFrom("subscription_signups")
        .where("created_at", "<", before.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** The payment that made the subscription active, for telling a second paid payment apart from a replay. */
async function paidBy(trx: Kysely<Schema>, subscriptionId: string): Promise<string | undefined> {
  const row = await trx
    .selectFrom("subscription_transitions")
    .select("payment_id")
    .where("subscription_id", "=", subscriptionId)
    .where("to_status", "=", "active")
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row?.payment_id ?? undefined;
}
