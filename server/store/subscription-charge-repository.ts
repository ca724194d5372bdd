import type { Kysely, Selectable } from "kysely";
import type { IsoDate } from "../domain/working-days.ts";
import type { Schema } from "./schema.ts";

/** One attempt to charge a subscription's period after the first (subscription_charges). */
export interface SubscriptionCharge {
  id: number;
  subscriptionId: string;
  periodStart: IsoDate;
  periodEnd: IsoDate;
  attempt: number;
  dueOn: IsoDate;
  amountCents: number;
  method: "mandate" | "by_hand";
  /** Undefined while the provider has not answered (the row is claimed, nothing charged yet). */
  paymentId: string | undefined;
  provider: string;
  /** "claimed", then the provider's PaymentStatus. */
  status: string;
  pageUrl: string | undefined;
  failureMailedAt: string | undefined;
  createdAt: string;
}

export type ChargeClaim = Pick<
  SubscriptionCharge,
  "subscriptionId" | "periodStart" | "periodEnd" | "attempt" | "dueOn" | "amountCents" | "method" | "provider"
>;

function chargeOf(row: Selectable<Schema["subscription_charges"]>): SubscriptionCharge {
  return {
    id: Number(row.id),
    subscriptionId: row.subscription_id,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    attempt: Number(row.attempt),
    dueOn: row.due_on,
    amountCents: Number(row.amount_cents),
    method: row.method === "by_hand" ? "by_hand" : "mandate",
    paymentId: row.payment_id ?? undefined,
    provider: row.provider,
    status: row.status,
    pageUrl: row.page_url ?? undefined,
    failureMailedAt: row.failure_mailed_at ?? undefined,
    createdAt: row.created_at,
  };
}

export interface SubscriptionChargeRepository {
  /**
   * Claims a period's attempt before anything is charged: the first claim inserts the row,
   * any later one (a second run, another instance) finds it. `claimed` says which.
   */
  claim(charge: ChargeClaim, at: Date): Promise<{ claimed: boolean; charge: SubscriptionCharge }>;
  /** The provider's payment for a claimed charge. */
  attachPayment(
    id: number,
    payment: { paymentId: string; status: string; pageUrl: string | undefined },
    at: Date,
  ): Promise<void>;
  remember(id: number, status: string, at: Date, trx?: Kysely<Schema>): Promise<void>;
  byPayment(paymentId: string, trx?: Kysely<Schema>): Promise<SubscriptionCharge | undefined>;
  byId(id: number, trx?: Kysely<Schema>): Promise<SubscriptionCharge | undefined>;
  /** Every charge of a subscription, oldest period and attempt first. */
  ofSubscription(subscriptionId: string): Promise<SubscriptionCharge[]>;
  /** The latest attempt for one period, if any. */
  latestFor(subscriptionId: string, periodStart: IsoDate): Promise<SubscriptionCharge | undefined>;
  /** How many periods after the first were paid (on the mandate or by hand): the next period's number is this + 2. */
  paidPeriods(subscriptionId: string): Promise<number>;
  /**
   * Marks the failed-charge mail as queued, with the hash of the token its link carries to
   * pay the period by hand; false when it already was (one mail per charge).
   */
  markFailureMailed(id: number, at: Date, trx: Kysely<Schema>, payLinkHash: string): Promise<boolean>;
  /** The charge whose mail carried the link with this token's hash. */
  byPayLink(hash: string, trx?: Kysely<Schema>): Promise<SubscriptionCharge | undefined>;
}

export function subscriptionChargeRepository(db: Kysely<Schema>): SubscriptionChargeRepository {
  const select = (trx: Kysely<Schema>) => trx.selectFrom("subscription_charges").selectAll();

  return {
    async claim(charge, at) {
      const stamp = at.toISOString();
      const inserted = await db
        .insertInto("subscription_charges")
        .values({
          subscription_id: charge.subscriptionId,
          period_start: charge.periodStart,
          period_end: charge.periodEnd,
          attempt: charge.attempt,
          due_on: charge.dueOn,
          amount_cents: charge.amountCents,
          method: charge.method,
          payment_id: null,
          provider: charge.provider,
          status: "claimed",
          page_url: null,
          failure_mailed_at: null,
          pay_link_hash: null,
          created_at: stamp,
          updated_at: stamp,
        })
        .onConflict((oc) => oc.columns(["subscription_id", "period_start", "attempt"]).doNothing())
        .executeTakeFirst();
      const row = await select(db)
        .where("subscription_id", "=", charge.subscriptionId)
        .where("period_start", "=", charge.periodStart)
        .where("attempt", "=", charge.attempt)
        .executeTakeFirstOrThrow();
      return { claimed: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0, charge: chargeOf(row) };
    },

    async attachPayment(id, payment, at) {
      await db
        .updateTable("subscription_charges")
        .set({
          payment_id: payment.paymentId,
          status: payment.status,
          page_url: payment.pageUrl ?? null,
          updated_at: at.toISOString(),
        })
        .where("id", "=", id)
        .execute();
    },

    async remember(id, status, at, trx = db) {
      await trx
        .updateTable("subscription_charges")
        .set({ status, updated_at: at.toISOString() })
        .where("id", "=", id)
        .execute();
    },

    async byPayment(paymentId, trx = db) {
      const row = await select(trx).where("payment_id", "=", paymentId).executeTakeFirst();
      return row ? chargeOf(row) : undefined;
    },

    async byId(id, trx = db) {
      const row = await select(trx).where("id", "=", id).executeTakeFirst();
      return row ? chargeOf(row) : undefined;
    },

    async ofSubscription(subscriptionId) {
      const rows = await select(db)
        .where("subscription_id", "=", subscriptionId)
        .orderBy("period_start")
        .orderBy("attempt")
        .execute();
      return rows.map(chargeOf);
    },

    async latestFor(subscriptionId, periodStart) {
      const row = await select(db)
        .where("subscription_id", "=", subscriptionId)
        .where("period_start", "=", periodStart)
        .orderBy("attempt", "desc")
        .limit(1)
        .executeTakeFirst();
      return row ? chargeOf(row) : undefined;
    },

    async paidPeriods(subscriptionId) {
      // A period paid by hand from the failed mail's link (ADR 0106) counts the same; `union`
      // counts a period paid both ways once, in one round trip.
      const periods = await db
        .selectFrom("subscription_charges")
        .select("period_start")
        .where("subscription_id", "=", subscriptionId)
        .where("status", "=", "paid")
        .union(
          db
            .selectFrom("by_hand_payments")
            .select("period_start")
            .where("subscription_id", "=", subscriptionId)
            .where("status", "=", "paid"),
        )
        .execute();
      return periods.length;
    },

    async byPayLink(hash, trx = db) {
      const row = await select(trx).where("pay_link_hash", "=", hash).executeTakeFirst();
      return row ? chargeOf(row) : undefined;
    },

    async markFailureMailed(id, at, trx, payLinkHash) {
      const marked = await trx
        .updateTable("subscription_charges")
        .set({ failure_mailed_at: at.toISOString(), pay_link_hash: payLinkHash })
        .where("id", "=", id)
        .where("failure_mailed_at", "is", null)
        .executeTakeFirst();
      return Number(marked.numUpdatedRows) > 0;
    },
  };
}
