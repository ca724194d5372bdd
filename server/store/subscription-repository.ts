import { type Kysely, PostgresAdapter, type Selectable } from "kysely";
import { localMoment } from "../domain/delivery-times.ts";
import { type DeliveryCountry, isDeliveryCountry } from "../domain/postcode.ts";
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
import { randomId } from "./random-id.ts";
import type { Schema } from "./schema.ts";

/** The plan a subscription is taken out for, at the prices the shopper was shown. */
export interface PlanChoice {
  planId: string;
  monthlyCents: number;
  offer: { monthlyCents: number; months: number } | undefined;
}

export interface Subscription extends PlanChoice {
  id: string;
  /** Its subscriber; undefined once the account was deleted (the row stays for the books). */
  accountId: string | undefined;
  /** The subscriber's name and address, from the account ("" once it was deleted). */
  name: string;
  email: string;
  /** The browser (shopper cookie) whose page shows it without signing in. */
  ownerId: string | undefined;
  locale: string;
  /**
   * Where the subscriber lives, as they said at sign-up: the fee is an electronic service,
   * taxed in that country (ADR 0110), whatever the language.
   */
  country: DeliveryCountry;
  status: SubscriptionStatus;
  /** The first and last day of the paid period; undefined until the first period is paid. */
  paidFrom: IsoDate | undefined;
  paidUntil: IsoDate | undefined;
  /** The first day of its first period: the 14 days to withdraw count from it. */
  startedOn: IsoDate | undefined;
  /** Notice given: the last day it runs. */
  endsOn: IsoDate | undefined;
  /** The provider's customer, and the mandate the first payment made (the next periods are charged on it). */
  customerId: string | undefined;
  mandateId: string | undefined;
  /** When its address was confirmed or it was taken out again. */
  createdAt: string;
}

export type StartResult =
  | { kind: "waiting"; subscription: Subscription }
  /** The account already has an active subscription: nothing changed. */
  | { kind: "already-active"; subscription: Subscription };

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
  get(id: string): Promise<Subscription | undefined>;
  /** The account's subscription, whatever its status (read in `trx` when given). */
  forAccount(accountId: string, trx?: Kysely<Schema>): Promise<Subscription | undefined>;
  /** The status and plan of the subscription of the account whose owner id this is (its photos'), if any. */
  planOfOwner(ownerId: string): Promise<{ status: SubscriptionStatus; planId: string } | undefined>;
  /**
   * Takes out a subscription for an account whose address is confirmed, waiting for its first
   * payment; an unpaid or expired one of the account takes the new plan (an expired one is
   * started again). Runs in the caller's transaction (`db`), holding the account's row.
   */
  startFor(
    db: Kysely<Schema>,
    account: { id: string; locale: string },
    plan: PlanChoice,
    ownerId: string,
    at: Date,
    country: DeliveryCountry,
  ): Promise<StartResult>;
  /** The country the subscriber now lives in: the VAT of the invoices from now on (ADR 0110). */
  changeCountry(id: string, country: DeliveryCountry): Promise<void>;
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
  /** For work that changes more than the subscription in one transaction (its charges): read it under its row lock. */
  lockedSubscription(trx: Kysely<Schema>, id: string): Promise<Subscription | undefined>;
  /**
   * Applies `event` inside `trx` to a subscription read under its lock; `period` is the
   * period a paid charge pays for (charge_paid).
   */
  transitionIn(
    trx: Kysely<Schema>,
    subscription: Subscription,
    event: SubscriptionEvent,
    at: Date,
    afterChange: AfterSubscriptionChange | undefined,
    period?: { start: IsoDate; end: IsoDate },
  ): Promise<ApplySubscriptionEventResult>;
  /** Keeps the provider's customer and mandate with the subscription. */
  rememberProvider(
    id: string,
    ids: { customerId?: string; mandateId?: string },
    trx?: Kysely<Schema>,
  ): Promise<void>;
  /** Expires every subscription confirmed before `before` and still unpaid. Returns how many. */
  expireUnpaid(before: Date, options?: { at?: Date; afterChange?: AfterSubscriptionChange }): Promise<number>;
}

type SubscriptionRow = Selectable<Schema["subscriptions"]> & { name: string | null; email: string | null };

function subscriptionOf(row: SubscriptionRow): Subscription {
  if (!isSubscriptionStatus(row.status))
    throw new Error(`subscription ${row.id} has an unknown status "${row.status}"`);
  if (!isDeliveryCountry(row.country))
    throw new Error(`subscription ${row.id} has an unknown country "${row.country}"`);
  return {
    id: row.id,
    accountId: row.account_id ?? undefined,
    ownerId: row.owner_id ?? undefined,
    name: row.name ?? "",
    email: row.email ?? "",
    planId: row.plan_id,
    monthlyCents: Number(row.monthly_cents),
    offer: offerOf(row),
    locale: row.locale,
    country: row.country,
    status: row.status,
    paidFrom: row.paid_from ?? undefined,
    paidUntil: row.paid_until ?? undefined,
    startedOn: row.started_on ?? undefined,
    endsOn: row.ends_on ?? undefined,
    customerId: row.customer_id ?? undefined,
    mandateId: row.mandate_id ?? undefined,
    createdAt: row.created_at,
  };
}

/** The offer columns a subscription and a sign-up share, as the offer they hold. */
export function offerOf(row: { offer_cents: number | null; offer_months: number | null }) {
  return row.offer_cents === null || row.offer_months === null
    ? undefined
    : { monthlyCents: Number(row.offer_cents), months: Number(row.offer_months) };
}

/** What the first period costs: the offer's monthly price while there is one. */
export function firstPeriodCents(subscription: {
  monthlyCents: number;
  offer?: { monthlyCents: number } | undefined;
}): number {
  return subscription.offer?.monthlyCents ?? subscription.monthlyCents;
}

function eventType(value: string): SubscriptionEventType {
  const known = subscriptionEventTypes.find((type) => type === value);
  if (!known) throw new Error(`a subscription transition has an unknown event "${value}"`);
  return known;
}

export function subscriptionRepository(db: Kysely<Schema>): SubscriptionRepository {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  /** Subscriptions with their subscriber's name and address. */
  const withAccount = (trx: Kysely<Schema>) =>
    trx
      .selectFrom("subscriptions")
      .leftJoin("accounts", "accounts.id", "subscriptions.account_id")
      .selectAll("subscriptions")
      .select(["accounts.name as name", "accounts.email as email"]);

  const get = async (id: string, trx: Kysely<Schema> = db) => {
    const row = await withAccount(trx).where("subscriptions.id", "=", id).executeTakeFirst();
    return row ? subscriptionOf(row) : undefined;
  };

  async function transition(
    trx: Kysely<Schema>,
    subscription: Subscription,
    event: SubscriptionEvent,
    at: Date,
    afterChange: AfterSubscriptionChange | undefined,
    period?: { start: IsoDate; end: IsoDate },
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
    const changes = periodChanges(subscription, event, at, period);
    await trx
      .updateTable("subscriptions")
      .set({
        status: to,
        paid_from: changes.paidFrom ?? null,
        paid_until: changes.paidUntil ?? null,
        started_on: changes.startedOn ?? null,
        ends_on: changes.endsOn ?? null,
      })
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
    await afterChange?.(trx, { ...subscription, ...changes, status: to }, { from, to, event, at });
    return { kind: "changed", from, to };
  }

  async function applyEvent(
    id: string,
    event: SubscriptionEvent,
    at: Date,
    options: { afterChange?: AfterSubscriptionChange } = {},
  ): Promise<ApplySubscriptionEventResult> {
    return db.transaction().execute(async (trx) => {
      const subscription = await lockedSubscription(trx, id);
      if (!subscription) return { kind: "unknown-subscription" };
      return transition(trx, subscription, event, at, options.afterChange);
    });
  }

  /** The subscription, its row locked for the rest of `trx` (PostgreSQL; SQLite has one writer). */
  async function lockedSubscription(trx: Kysely<Schema>, id: string) {
    const read = trx.selectFrom("subscriptions").select("id").where("id", "=", id);
    const locked = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
    return locked ? get(id, trx) : undefined;
  }

  return {
    get: (id) => get(id),
    lockedSubscription,
    transitionIn: transition,

    async forAccount(accountId, trx = db) {
      const row = await withAccount(trx).where("subscriptions.account_id", "=", accountId).executeTakeFirst();
      return row ? subscriptionOf(row) : undefined;
    },

    async planOfOwner(ownerId) {
      const row = await db
        .selectFrom("subscriptions")
        .innerJoin("accounts", "accounts.id", "subscriptions.account_id")
        .select(["subscriptions.status", "subscriptions.plan_id"])
        .where("accounts.owner_id", "=", ownerId)
        .executeTakeFirst();
      if (!row || !isSubscriptionStatus(row.status)) return undefined;
      return { status: row.status, planId: row.plan_id };
    },

    async startFor(trx, account, plan, ownerId, at, country) {
      const details = {
        owner_id: ownerId,
        plan_id: plan.planId,
        monthly_cents: plan.monthlyCents,
        offer_cents: plan.offer?.monthlyCents ?? null,
        offer_months: plan.offer?.months ?? null,
        locale: account.locale,
        country,
        created_at: at.toISOString(),
      };
      const read = trx.selectFrom("subscriptions").select("id").where("account_id", "=", account.id);
      const existing = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
      if (!existing) {
        const id = randomId();
        await trx
          .insertInto("subscriptions")
          .values({ id, account_id: account.id, ...details, status: "awaiting_payment", paid_until: null })
          .execute();
        return { kind: "waiting", subscription: (await get(id, trx)) as Subscription };
      }
      const current = (await get(existing.id, trx)) as Subscription;
      if (current.status === "active") return { kind: "already-active", subscription: current };
      if (current.status === "expired" || current.status === "cancelled") {
        await transition(trx, current, { type: "restarted" }, at, undefined);
      }
      await trx.updateTable("subscriptions").set(details).where("id", "=", current.id).execute();
      return { kind: "waiting", subscription: (await get(current.id, trx)) as Subscription };
    },

    applyEvent,

    async changeCountry(id, country) {
      await db.updateTable("subscriptions").set({ country }).where("id", "=", id).execute();
    },

    async rememberProvider(id, ids, trx = db) {
      await trx
        .updateTable("subscriptions")
        .set({
          ...(ids.customerId ? { customer_id: ids.customerId } : {}),
          ...(ids.mandateId ? { mandate_id: ids.mandateId } : {}),
        })
        .where("id", "=", id)
        .execute();
    },

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
  };
}

/**
 * The dates a change moves: the first payment starts the first period (and the withdrawal
 * window) today; a paid charge sets the period it paid; notice fixes the last day to the
 * paid period's end; being taken out again forgets the old periods.
 */
function periodChanges(
  subscription: Subscription,
  event: SubscriptionEvent,
  at: Date,
  period: { start: IsoDate; end: IsoDate } | undefined,
): Pick<Subscription, "paidFrom" | "paidUntil" | "startedOn" | "endsOn"> {
  const kept = {
    paidFrom: subscription.paidFrom,
    paidUntil: subscription.paidUntil,
    startedOn: subscription.startedOn,
    endsOn: subscription.endsOn,
  };
  switch (event.type) {
    case "payment_paid": {
      const today = localMoment(at).date;
      return { paidFrom: today, paidUntil: periodEnd(today), startedOn: today, endsOn: undefined };
    }
    case "charge_paid":
      return period ? { ...kept, paidFrom: period.start, paidUntil: period.end } : kept;
    case "notice_given":
      return { ...kept, endsOn: subscription.paidUntil ?? localMoment(at).date };
    case "cancelled":
      return { ...kept, endsOn: localMoment(at).date };
    case "withdrawn":
      return { ...kept, endsOn: event.on };
    case "restarted":
      return { paidFrom: undefined, paidUntil: undefined, startedOn: undefined, endsOn: undefined };
    default:
      return kept;
  }
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
