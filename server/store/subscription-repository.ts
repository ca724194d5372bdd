import type { Kysely, Selectable } from "kysely";
import { enqueueMail, type OutgoingMail } from "../mail/outbox.ts";
import { randomId } from "./random-id.ts";
import type { Schema } from "./schema.ts";

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
  createdAt: string;
}

export interface SubscriptionRepository {
  /**
   * Stores the subscription and queues its welcome mail in one transaction. Answers
   * undefined when the address already has a subscription (also when two sign-ups race);
   * then, with `alreadySubscribed`, that mail goes to the address as its subscription has
   * it instead, at most once an hour per address (a sign-up form is no way to flood a
   * mailbox).
   */
  create(
    subscription: NewSubscription,
    mail: OutgoingMail,
    at?: Date,
    alreadySubscribed?: (address: string) => OutgoingMail,
  ): Promise<Subscription | undefined>;
  /** The newest subscription taken out from this shopper's browser. */
  latestForOwner(ownerId: string): Promise<Subscription | undefined>;
  /** The subscription of an address, however it is typed: what signing in looks up. */
  findByEmail(email: string): Promise<Subscription | undefined>;
  /**
   * Stores a new hash of the same password (one made at today's cost), only while the
   * stored one is still `previous`: a password changed in the meantime is never overwritten.
   */
  replacePasswordHash(id: string, previous: string, next: string): Promise<boolean>;
}

/** How often an address hears that someone tried to sign up with it. */
const alreadySubscribedMailEveryMs = 60 * 60 * 1000;

type SubscriptionRow = Selectable<Schema["subscriptions"]>;

function subscriptionOf(row: SubscriptionRow): Subscription {
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
    createdAt: row.created_at,
  };
}

/** One subscription per address, however it is typed: "Anna@Example.nl " is anna@example.nl. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

export function subscriptionRepository(db: Kysely<Schema>): SubscriptionRepository {
  return {
    async create(subscription, mail, at = new Date(), alreadySubscribed) {
      const row = {
        id: randomId(),
        owner_id: subscription.ownerId ?? null,
        name: subscription.name,
        email: subscription.email.trim(),
        email_key: emailKey(subscription.email),
        plan_id: subscription.planId,
        monthly_cents: subscription.monthlyCents,
        offer_cents: subscription.offer?.monthlyCents ?? null,
        offer_months: subscription.offer?.months ?? null,
        password_hash: subscription.passwordHash,
        locale: subscription.locale,
        created_at: at.toISOString(),
      };
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto("subscriptions")
          .values(row)
          .onConflict((oc) => oc.column("email_key").doNothing())
          .returning("id")
          .executeTakeFirst();
        if (!inserted) {
          if (alreadySubscribed) await tellAlreadySubscribed(trx, row.email_key, at, alreadySubscribed);
          return undefined;
        }
        await enqueueMail(trx, mail, at);
        return { ...subscription, id: row.id, createdAt: row.created_at };
      });
    },

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
  };
}

/** Queues the "someone tried to sign up with your address" mail, unless one went out within the hour. */
async function tellAlreadySubscribed(
  trx: Kysely<Schema>,
  key: string,
  at: Date,
  compose: (address: string) => OutgoingMail,
): Promise<void> {
  const existing = await trx
    .selectFrom("subscriptions")
    .select("email")
    .where("email_key", "=", key)
    .executeTakeFirst();
  // Gone again between the insert and now: nobody to tell.
  if (!existing) return;
  const mail = compose(existing.email);
  const recent = await trx
    .selectFrom("outbox")
    .select("id")
    .where("kind", "=", mail.kind)
    .where("to_address", "=", mail.to)
    .where("created_at", ">", new Date(at.getTime() - alreadySubscribedMailEveryMs).toISOString())
    .executeTakeFirst();
  if (!recent) await enqueueMail(trx, mail, at);
}
