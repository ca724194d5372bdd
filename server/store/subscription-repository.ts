import type { Kysely } from "kysely";
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
   * undefined when the address already has a subscription (also when two sign-ups race).
   */
  create(subscription: NewSubscription, mail: OutgoingMail, at?: Date): Promise<Subscription | undefined>;
  emailTaken(email: string): Promise<boolean>;
  /** The newest subscription taken out from this shopper's browser. */
  latestForOwner(ownerId: string): Promise<Subscription | undefined>;
}

/** One subscription per address, however it is typed: "Anna@Example.nl " is anna@example.nl. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

export function subscriptionRepository(db: Kysely<Schema>): SubscriptionRepository {
  return {
    async create(subscription, mail, at = new Date()) {
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
        if (!inserted) return undefined;
        await enqueueMail(trx, mail, at);
        return { ...subscription, id: row.id, createdAt: row.created_at };
      });
    },

    async emailTaken(email) {
      const row = await db
        .selectFrom("subscriptions")
        .select("id")
        .where("email_key", "=", emailKey(email))
        .executeTakeFirst();
      return row !== undefined;
    },

    async latestForOwner(ownerId) {
      const row = await db
        .selectFrom("subscriptions")
        .selectAll()
        .where("owner_id", "=", ownerId)
        .orderBy("created_at", "desc")
        .executeTakeFirst();
      if (!row) return undefined;
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
    },
  };
}
