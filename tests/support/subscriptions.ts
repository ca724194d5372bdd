import type { Kysely } from "kysely";
import { hashPassword } from "../../server/domain/password-hash.ts";
import type { Schema } from "../../server/store/schema.ts";
import { signupRepository } from "../../server/store/signup-repository.ts";
import { type Subscription, subscriptionRepository } from "../../server/store/subscription-repository.ts";

/** The path of the newest sign-up link of `kind` mailed to `address`, as its reader would click it. */
export async function signupLinkPath(
  db: Kysely<Schema>,
  address: string,
  kind = "subscription-confirm",
): Promise<string | undefined> {
  const mail = await db
    .selectFrom("outbox")
    .select("text_body")
    .where("kind", "=", kind)
    .where("to_address", "=", address)
    .orderBy("id", "desc")
    .executeTakeFirst();
  const link = /https?:\/\/\S+\/[\w/-]+\/[\w-]{43}(?=\s)/.exec(mail?.text_body ?? "");
  return link ? new URL(link[0]).pathname : undefined;
}

type Fields = { email: string; name?: string; password?: string; planId?: string; ownerId?: string };

/**
 * A subscription that was signed up for and confirmed (which made its account), waiting for
 * its first payment, made through the store as the routes make it.
 */
export async function confirmedSubscription(db: Kysely<Schema>, fields: Fields): Promise<Subscription> {
  const subscriptions = subscriptionRepository(db);
  const signups = signupRepository(db, subscriptions);
  const at = new Date();
  let token = "";
  await signups.request(
    {
      ownerId: fields.ownerId,
      name: fields.name ?? "Carla Jansen",
      email: fields.email,
      plan: { planId: fields.planId ?? "plus", monthlyCents: 599, offer: undefined, country: "NL" },
      passwordHash: await hashPassword(fields.password ?? "Zomer aan zee 2026!"),
      locale: "nl",
    },
    {
      confirm: (made) => {
        token = made;
        return {
          kind: "subscription-confirm",
          locale: "nl",
          to: fields.email,
          subject: "Bevestig",
          text: made,
        };
      },
      alreadyKnown: () => {
        throw new Error(`${fields.email} already has a subscription`);
      },
    },
    at,
  );
  const confirmed = await signups.confirm(token, at);
  if (confirmed.kind !== "confirmed" || !confirmed.subscription)
    throw new Error(`not confirmed: ${confirmed.kind}`);
  return confirmed.subscription;
}

/** A confirmed subscription whose first period was paid: the set-up of tests about what others may learn of it. */
export async function activeSubscription(db: Kysely<Schema>, fields: Fields): Promise<Subscription> {
  const confirmed = await confirmedSubscription(db, fields);
  const subscriptions = subscriptionRepository(db);
  await subscriptions.applyEvent(
    confirmed.id,
    { type: "payment_paid", paymentId: `tr_${confirmed.id.slice(0, 8)}` },
    new Date(),
  );
  return (await subscriptions.get(confirmed.id)) as Subscription;
}
