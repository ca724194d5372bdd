import type { Kysely, Selectable } from "kysely";
import { localMoment } from "../domain/delivery-times.ts";
import { periodCents } from "../domain/subscription-lifecycle.ts";
import { type PlanChangeKind, planChangeKind, upgradeCents } from "../domain/subscription-plan-changes.ts";
import { type Plan, planById, plans } from "../domain/subscription-plans.ts";
import { addDays, type IsoDate } from "../domain/working-days.ts";
import type { Locale } from "../i18n/locales.ts";
import { enqueueMail } from "../mail/outbox.ts";
import {
  subscriptionDowngradeScheduledMail,
  subscriptionUpgradedMail,
  subscriptionUpgradeFailedMail,
} from "../mail/subscription-renewal-mails.ts";
import type { Schema } from "../store/schema.ts";
import { subscriptionChargeRepository } from "../store/subscription-charge-repository.ts";
import {
  offerOf,
  type PlanChoice,
  type Subscription,
  type SubscriptionRepository,
} from "../store/subscription-repository.ts";
import { isFinalStatus, PaymentProviderError, PaymentProviderUnavailable } from "./provider.ts";
import type { SubscriptionChargesDeps } from "./subscription-charges.ts";

/** One change of plan (subscription_plan_changes). */
export interface PlanChange {
  id: number;
  subscriptionId: string;
  kind: "upgrade" | "downgrade";
  from: PlanChoice;
  to: PlanChoice;
  /** The first day on the new plan; for an upgrade, the last day its amount pays for. */
  startsOn: IsoDate;
  periodEnd: IsoDate;
  amountCents: number;
  status: "scheduled" | "applied" | "dropped" | "charging" | "paid" | "failed";
  paymentId: string | undefined;
  paymentStatus: string | undefined;
  testPageUrl: string | undefined;
  createdAt: string;
}

/** What choosing another plan would do today, as the account page offers it. */
export interface PlanOption {
  planId: string;
  kind: PlanChangeKind;
  /** The first day on it: today for an upgrade, the next period's first day for a downgrade. */
  startsOn: IsoDate;
  /** Charged now: the rest of the paid period, pro rata (upgrades only). */
  amountCents: number;
  /** What its first full period costs, and from when. */
  nextPeriodCents: number;
  nextPeriodStart: IsoDate;
}

export interface PlanChangeOptions {
  /** The plans to choose from, the current one included (kind "none"). */
  options: PlanOption[];
  /** A downgrade waiting for the next period, or an upgrade whose charge is under way. */
  pending: PlanChange | undefined;
  /** Why the plan cannot be changed now; undefined when it can. */
  blocked: "not-running" | "no-mandate" | "charging" | undefined;
  /** How many periods after the first were paid (the charges' `paidPeriods`). */
  paidPeriods: number;
}

export type PlanChangeResult =
  | { kind: "upgraded"; change: PlanChange }
  | { kind: "downgrade-scheduled"; change: PlanChange }
  /** A waiting downgrade was taken back: the current plan goes on. */
  | { kind: "kept" }
  | { kind: "unchanged" }
  | { kind: "blocked"; reason: NonNullable<PlanChangeOptions["blocked"]> }
  /** The day changed since the page showed its amounts: they are shown again. */
  | { kind: "stale" }
  | { kind: "unknown-plan" }
  /** The provider could not charge the upgrade: nothing changed. */
  | { kind: "not-charged" };

export interface SubscriptionPlanChanges {
  /** What the account page offers a subscription today. */
  options(subscription: Subscription): Promise<PlanChangeOptions>;
  /** The subscriber chose `planId` on a page showing the amounts of `shownOn`. */
  change(subscriptionId: string, planId: string, shownOn: IsoDate): Promise<PlanChangeResult>;
  /** The provider's word on an upgrade's charge, applied once; undefined for ids it never made. */
  sync(paymentId: string): Promise<{ subscriptionId: string; status: string } | undefined>;
  /** Upgrades left charging by a run that died or a lost webhook: asked again (the renewal run). */
  settleUnfinished(): Promise<number>;
  /** Every change of a subscription, oldest first (the command's `show`). */
  ofSubscription(subscriptionId: string): Promise<PlanChange[]>;
}

/** The renewal's own: an upgrade's charge is made on the mandate as a period's is. */
export type SubscriptionPlanChangesDeps = SubscriptionChargesDeps;

/** An upgrade's charge without a payment this old was left by a request that died: asked again. */
const staleChargeMs = 5 * 60_000;

const statuses = ["scheduled", "applied", "dropped", "charging", "paid", "failed"] as const;

function changeOf(row: Selectable<Schema["subscription_plan_changes"]>): PlanChange {
  const status = statuses.find((s) => s === row.status);
  if (!status) throw new Error(`plan change ${row.id} has an unknown status "${row.status}"`);
  return {
    id: Number(row.id),
    subscriptionId: row.subscription_id,
    kind: row.kind === "upgrade" ? "upgrade" : "downgrade",
    from: {
      planId: row.from_plan_id,
      monthlyCents: Number(row.from_monthly_cents),
      offer: offerOf({ offer_cents: row.from_offer_cents, offer_months: row.from_offer_months }),
    },
    to: {
      planId: row.to_plan_id,
      monthlyCents: Number(row.to_monthly_cents),
      offer: offerOf({ offer_cents: row.to_offer_cents, offer_months: row.to_offer_months }),
    },
    startsOn: row.starts_on,
    periodEnd: row.period_end,
    amountCents: Number(row.amount_cents),
    status,
    paymentId: row.payment_id ?? undefined,
    paymentStatus: row.payment_status ?? undefined,
    testPageUrl: row.test_page_url ?? undefined,
    createdAt: row.created_at,
  };
}

/** A plan from the price list, at today's prices, as a subscription stores it. */
const choiceOf = (plan: Plan): PlanChoice => ({
  planId: plan.id,
  monthlyCents: plan.monthlyCents,
  offer: plan.offer ? { monthlyCents: plan.offer.monthlyCents, months: plan.offer.months } : undefined,
});

/** The subscription's plan columns for `plan`. */
const planColumns = (plan: PlanChoice) => ({
  plan_id: plan.planId,
  monthly_cents: plan.monthlyCents,
  offer_cents: plan.offer?.monthlyCents ?? null,
  offer_months: plan.offer?.months ?? null,
});

/** The invoice number of an upgrade's charge: the subscription, its first day, and the change. */
export function planChangeInvoiceNumber(change: Pick<PlanChange, "subscriptionId" | "startsOn" | "id">) {
  return `FH-A-${change.subscriptionId.slice(0, 8).toUpperCase()}-${change.startsOn.replaceAll("-", "")}-W${change.id}`;
}

/**
 * Changing a running subscription's plan (ADR 0108). An upgrade is the new plan from today:
 * the subscription takes it at once and the rest of the paid period is charged on the
 * mandate, pro rata; a failed charge puts the old plan back, with a mail. A downgrade waits
 * for the next period: the renewal applies it (applyScheduledPlanChange) before charging.
 * Only an active subscription with a mandate changes plan; one change is under way at a time.
 */
export function subscriptionPlanChanges(deps: SubscriptionPlanChangesDeps): SubscriptionPlanChanges {
  const { db, provider, subscriptions, i18n, log, now } = deps;
  const charges = subscriptionChargeRepository(db);
  const webhookUrl = `${deps.origin}${i18n.routes.pathFor("paymentWebhook", "nl")}`;

  const select = (trx: Kysely<Schema>) => trx.selectFrom("subscription_plan_changes").selectAll();
  const byId = async (id: number, trx: Kysely<Schema> = db) => {
    const row = await select(trx).where("id", "=", id).executeTakeFirst();
    return row ? changeOf(row) : undefined;
  };
  const pendingOf = async (subscriptionId: string, trx: Kysely<Schema> = db) => {
    const row = await select(trx)
      .where("subscription_id", "=", subscriptionId)
      .where("status", "in", ["scheduled", "charging"])
      .orderBy("id", "desc")
      .executeTakeFirst();
    return row ? changeOf(row) : undefined;
  };
  const setStatus = (id: number, status: PlanChange["status"], trx: Kysely<Schema>, extra = {}) =>
    trx
      .updateTable("subscription_plan_changes")
      .set({ status, updated_at: now().toISOString(), ...extra })
      .where("id", "=", id)
      .execute();

  function blockedFor(subscription: Subscription, pending: PlanChange | undefined, today: IsoDate) {
    // Past its paid period (the renewal has not charged the next one yet), nothing is paid to change.
    if (
      subscription.status !== "active" ||
      !subscription.paidFrom ||
      !subscription.paidUntil ||
      subscription.paidUntil < today
    )
      return "not-running" as const;
    if (!subscription.mandateId || !subscription.customerId) return "no-mandate" as const;
    if (pending?.status === "charging") return "charging" as const;
    return undefined;
  }

  /** What each plan would do for `subscription` on `today`, in period `number`. */
  function optionsOn(subscription: Subscription, number: number, today: IsoDate): PlanOption[] {
    const paidFrom = subscription.paidFrom ?? today;
    const paidUntil = subscription.paidUntil ?? today;
    const nextPeriodStart = addDays(paidUntil, 1);
    return plans.map((plan) => {
      const target = choiceOf(plan);
      const kind = plan.id === subscription.planId ? "none" : planChangeKind(subscription, target);
      return {
        planId: plan.id,
        kind,
        startsOn: kind === "upgrade" ? today : nextPeriodStart,
        amountCents:
          kind === "upgrade"
            ? upgradeCents(subscription, target, number, { start: paidFrom, end: paidUntil }, today)
            : 0,
        nextPeriodCents: periodCents(kind === "none" ? subscription : target, number + 1),
        nextPeriodStart,
      };
    });
  }

  /** The period number of the paid period: the first period is 1, each paid renewal adds one. */
  const currentNumber = async (subscriptionId: string) => (await charges.paidPeriods(subscriptionId)) + 1;

  /**
   * Asks the provider for an upgrade's charge; the row's id is the idempotency key. Asked by
   * the renewal run (`byRun`, the request died before the answer), a provider that is away is
   * asked again next run, and a refusal is mailed: the subscriber was last told it was charging.
   */
  async function charge(
    subscription: Subscription,
    change: PlanChange,
    byRun = false,
  ): Promise<PlanChangeResult> {
    const locale = subscription.locale as Locale;
    const t = i18n.t[locale];
    try {
      const created = await provider.createRecurringPayment({
        amountCents: change.amountCents,
        description: t("subscriptionPlanChange.chargeDescription", {
          shop: t("site.name"),
          plan: t(`subscription.plans.${change.to.planId}.name`),
        }),
        locale,
        customerId: subscription.customerId as string,
        mandateId: subscription.mandateId as string,
        webhookUrl,
        testReturnUrl: `${deps.origin}${i18n.routes.pathFor("accountSubscription", locale)}`,
        idempotencyKey: `plan-change-${change.id}`,
        metadata: { subscription: subscription.id, planChange: String(change.id) },
      });
      await db
        .updateTable("subscription_plan_changes")
        .set({
          payment_id: created.id,
          payment_status: created.status,
          test_page_url: created.testPageUrl ?? null,
          updated_at: now().toISOString(),
        })
        .where("id", "=", change.id)
        .execute();
      // A provider that decides at once (a card) has answered already.
      if (isFinalStatus(created.status)) await sync(created.id);
      return { kind: "upgraded", change: (await byId(change.id)) as PlanChange };
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      if (err instanceof PaymentProviderUnavailable) {
        log.warn({ err, subscription: subscription.id }, "upgrade not charged: the provider is unavailable");
        if (byRun) return { kind: "not-charged" };
      } else log.warn({ err, subscription: subscription.id }, "the provider refused the upgrade's charge");
      // Asked in the request, the page says so; asked by the run, a mail does.
      await fail(change.id, { mail: byRun });
      return { kind: "not-charged" };
    }
  }

  /** An upgrade's charge did not go through: the old plan comes back, unless it changed again since. */
  async function fail(changeId: number, options: { mail: boolean }, paymentStatus?: string) {
    const at = now();
    let mailed = false;
    await db.transaction().execute(async (trx) => {
      const first = await byId(changeId, trx);
      if (!first) return;
      const subscription = await subscriptions.lockedSubscription(trx, first.subscriptionId);
      const change = await byId(changeId, trx);
      if (!subscription || change?.status !== "charging") return;
      await setStatus(change.id, "failed", trx, paymentStatus ? { payment_status: paymentStatus } : {});
      if (subscription.planId !== change.to.planId) return;
      await trx
        .updateTable("subscriptions")
        .set(planColumns(change.from))
        .where("id", "=", subscription.id)
        .execute();
      if (options.mail) {
        const t = i18n.t[subscription.locale as Locale];
        const link = `${deps.origin}${i18n.routes.pathFor("accountSubscription", subscription.locale as Locale)}`;
        await enqueueMail(
          trx,
          subscriptionUpgradeFailedMail(t, { ...subscription, planId: change.from.planId }, change, link),
          at,
        );
        mailed = true;
      }
    });
    if (mailed) deps.mailQueued?.();
  }

  async function sync(paymentId: string) {
    if (!provider.isPaymentId(paymentId)) return undefined;
    const row = await select(db).where("payment_id", "=", paymentId).executeTakeFirst();
    if (!row) return undefined;
    const change = changeOf(row);
    const payment = await provider.getPayment(paymentId);
    if (!payment) return undefined;
    const answer = async () => ({
      subscriptionId: change.subscriptionId,
      status: (await byId(change.id))?.status ?? change.status,
    });
    if (payment.status === "paid") {
      if (payment.amountCents !== change.amountCents) {
        log.error(
          {
            paymentId,
            subscription: change.subscriptionId,
            paid: payment.amountCents,
            asked: change.amountCents,
          },
          "an upgrade was paid for another amount than the shop asked: check it by hand",
        );
        return answer();
      }
      const at = now();
      let mailed = false;
      await db.transaction().execute(async (trx) => {
        const subscription = await subscriptions.lockedSubscription(trx, change.subscriptionId);
        const again = await byId(change.id, trx);
        if (!subscription || !again) return;
        if (again.status === "failed") {
          // Paid after it was given up (the shopper was told so): the money goes back by hand.
          log.error(
            { paymentId, subscription: subscription.id },
            "an upgrade's charge was paid after it had failed: refund it",
          );
          return;
        }
        if (again.status !== "charging") return;
        await setStatus(again.id, "paid", trx, { payment_status: "paid" });
        const t = i18n.t[subscription.locale as Locale];
        await enqueueMail(
          trx,
          subscriptionUpgradedMail(t, subscription, again, {
            paymentId,
            invoice: planChangeInvoiceNumber(again),
            at,
          }),
          at,
        );
        mailed = true;
      });
      if (mailed) deps.mailQueued?.();
      return answer();
    }
    if (payment.status === "failed" || payment.status === "canceled" || payment.status === "expired") {
      await fail(change.id, { mail: true }, payment.status);
      return answer();
    }
    if (payment.status !== change.paymentStatus)
      await db
        .updateTable("subscription_plan_changes")
        .set({ payment_status: payment.status, updated_at: now().toISOString() })
        .where("id", "=", change.id)
        .execute();
    return answer();
  }

  return {
    sync,

    async options(subscription) {
      const pending = await pendingOf(subscription.id);
      const today = localMoment(now()).date;
      const paidPeriods = await charges.paidPeriods(subscription.id);
      return {
        options: optionsOn(subscription, paidPeriods + 1, today),
        pending,
        blocked: blockedFor(subscription, pending, today),
        paidPeriods,
      };
    },

    async change(subscriptionId, planId, shownOn) {
      const plan = planById(planId);
      if (!plan) return { kind: "unknown-plan" };
      const at = now();
      const today = localMoment(at).date;
      if (shownOn !== today) return { kind: "stale" };
      const number = await currentNumber(subscriptionId);
      let mailed = false;
      const decided = await db.transaction().execute(async (trx): Promise<PlanChangeResult> => {
        const subscription = await subscriptions.lockedSubscription(trx, subscriptionId);
        if (!subscription) return { kind: "blocked", reason: "not-running" };
        const pending = await pendingOf(subscription.id, trx);
        const blocked = blockedFor(subscription, pending, today);
        if (blocked) return { kind: "blocked", reason: blocked };
        const option = optionsOn(subscription, number, today).find((o) => o.planId === plan.id);
        if (!option) return { kind: "unknown-plan" };
        // Whatever is chosen now replaces a downgrade still waiting.
        if (pending?.status === "scheduled") await setStatus(pending.id, "dropped", trx);
        if (option.kind === "none") return pending ? { kind: "kept" } : { kind: "unchanged" };
        const stamp = at.toISOString();
        const target = choiceOf(plan);
        const inserted = await trx
          .insertInto("subscription_plan_changes")
          .values({
            subscription_id: subscription.id,
            kind: option.kind,
            from_plan_id: subscription.planId,
            from_monthly_cents: subscription.monthlyCents,
            from_offer_cents: subscription.offer?.monthlyCents ?? null,
            from_offer_months: subscription.offer?.months ?? null,
            to_plan_id: target.planId,
            to_monthly_cents: target.monthlyCents,
            to_offer_cents: target.offer?.monthlyCents ?? null,
            to_offer_months: target.offer?.months ?? null,
            starts_on: option.startsOn,
            period_end: option.kind === "upgrade" ? (subscription.paidUntil as IsoDate) : option.startsOn,
            amount_cents: option.amountCents,
            // An upgrade that costs nothing more this period is done; a downgrade waits.
            status: option.kind === "downgrade" ? "scheduled" : option.amountCents > 0 ? "charging" : "paid",
            created_at: stamp,
            updated_at: stamp,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        const change = (await byId(Number(inserted.id), trx)) as PlanChange;
        const t = i18n.t[subscription.locale as Locale];
        if (option.kind === "downgrade") {
          const link = `${deps.origin}${i18n.routes.pathFor("accountSubscription", subscription.locale as Locale)}`;
          await enqueueMail(
            trx,
            subscriptionDowngradeScheduledMail(t, subscription, change, {
              amountCents: option.nextPeriodCents,
              lastDay: subscription.paidUntil as IsoDate,
              link,
            }),
            at,
          );
          mailed = true;
          return { kind: "downgrade-scheduled", change };
        }
        await trx
          .updateTable("subscriptions")
          .set(planColumns(target))
          .where("id", "=", subscription.id)
          .execute();
        if (change.status === "paid") {
          await enqueueMail(
            trx,
            subscriptionUpgradedMail(t, { ...subscription, planId: target.planId }, change, undefined),
            at,
          );
          mailed = true;
        }
        return { kind: "upgraded", change };
      });
      if (mailed) deps.mailQueued?.();
      if (decided.kind !== "upgraded" || decided.change.status !== "charging") return decided;
      const subscription = (await subscriptions.get(subscriptionId)) as Subscription;
      return charge(subscription, decided.change);
    },

    async settleUnfinished() {
      const rows = await select(db).where("status", "=", "charging").orderBy("id").execute();
      let settled = 0;
      for (const row of rows) {
        const change = changeOf(row);
        try {
          if (change.paymentId) {
            await sync(change.paymentId);
            settled++;
          } else if (now().getTime() - Date.parse(change.createdAt) >= staleChargeMs) {
            const subscription = await subscriptions.get(change.subscriptionId);
            if (!subscription?.customerId || !subscription.mandateId) await fail(change.id, { mail: true });
            else await charge(subscription, change, true);
            settled++;
          }
        } catch (err) {
          log.warn({ err, planChange: change.id }, "upgrade's charge not settled; the next run tries again");
        }
      }
      return settled;
    },

    async ofSubscription(subscriptionId) {
      const rows = await select(db).where("subscription_id", "=", subscriptionId).orderBy("id").execute();
      return rows.map(changeOf);
    },
  };
}

/**
 * The renewal of the period starting on `periodStart` applies the downgrade waiting for it,
 * under the subscription's lock, before the period's amount is worked out. Answers whether
 * the plan changed.
 */
export async function applyScheduledPlanChange(
  deps: { db: Kysely<Schema>; subscriptions: SubscriptionRepository; now: () => Date },
  subscriptionId: string,
  periodStart: IsoDate,
): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const subscription = await deps.subscriptions.lockedSubscription(trx, subscriptionId);
    if (!subscription) return false;
    const row = await trx
      .selectFrom("subscription_plan_changes")
      .selectAll()
      .where("subscription_id", "=", subscriptionId)
      .where("status", "=", "scheduled")
      .where("starts_on", "<=", periodStart)
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!row) return false;
    const change = changeOf(row);
    await trx
      .updateTable("subscriptions")
      .set(planColumns(change.to))
      .where("id", "=", subscriptionId)
      .execute();
    await trx
      .updateTable("subscription_plan_changes")
      .set({ status: "applied", updated_at: deps.now().toISOString() })
      .where("id", "=", change.id)
      .execute();
    return true;
  });
}

/** The plan the next period is charged at: a downgrade waiting for it, else the subscription's own. */
export async function planForNextPeriod(db: Kysely<Schema>, subscription: Subscription): Promise<PlanChoice> {
  if (!subscription.paidUntil) return subscription;
  const row = await db
    .selectFrom("subscription_plan_changes")
    .selectAll()
    .where("subscription_id", "=", subscription.id)
    .where("status", "=", "scheduled")
    .where("starts_on", "<=", addDays(subscription.paidUntil, 1))
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ? changeOf(row).to : subscription;
}
