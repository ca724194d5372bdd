import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import {
  chargeRetryDays,
  lastChargeAttempt,
  periodCents,
  periodEnd,
  type SubscriptionStatus,
  subscriptionCharged,
} from "../domain/subscription-lifecycle.ts";
import { addDays, type IsoDate } from "../domain/working-days.ts";
import type { I18n } from "../i18n/index.ts";
import type { Locale } from "../i18n/locales.ts";
import { enqueueMail } from "../mail/outbox.ts";
import {
  subscriptionChargeFailedMail,
  subscriptionRenewedMail,
  subscriptionSuspendedMail,
} from "../mail/subscription-renewal-mails.ts";
import { newLinkToken } from "../store/link-token.ts";
import type { Schema } from "../store/schema.ts";
import {
  type SubscriptionCharge,
  subscriptionChargeRepository,
} from "../store/subscription-charge-repository.ts";
import type { Subscription, SubscriptionRepository } from "../store/subscription-repository.ts";
import {
  isFinalStatus,
  isPaymentStatus,
  type PaymentProvider,
  PaymentProviderError,
  PaymentProviderUnavailable,
} from "./provider.ts";
import { applyScheduledPlanChange, subscriptionPlanChanges } from "./subscription-plan-changes.ts";
import { announcePriceChanges } from "./subscription-price-notices.ts";

export interface SubscriptionChargesDeps {
  db: Kysely<Schema>;
  provider: PaymentProvider;
  subscriptions: SubscriptionRepository;
  i18n: I18n;
  log: Pick<FastifyBaseLogger, "info" | "warn" | "error">;
  now: () => Date;
  /** The shop's own address (PUBLIC_URL): the webhook and the links in mails are built from it. */
  origin: string;
  mailQueued?: () => void;
}

/**
 * A claim without a payment this old was left by a run whose provider call failed (or that
 * died): the next run asks again. Younger ones belong to a run still waiting for its answer.
 */
const staleClaimMs = 5 * 60_000;

/** What one renewal run did, per subscription it looked at. */
export interface RenewalCounts {
  /** Charges asked of the provider (a period's first try or a retry). */
  charged: number;
  /** Charges whose provider's answer was asked again (a lost webhook, a provider that was away). */
  synced: number;
  /** Subscriptions under notice whose paid period ended, and ones without a mandate that cannot renew. */
  ended: number;
  /** Charges the provider could not be asked for: tried again next run. */
  unavailable: number;
  /** Mails saying an introductory offer ends and what the next period costs (ADR 0107). */
  priceNotices: number;
  /** Upgrades whose charge was asked about again (a lost webhook, a request that died; ADR 0108). */
  upgradesSettled: number;
}

export interface SubscriptionCharges {
  /**
   * Charges what is due on `asOf` (a day on the shop's calendar): renewals, retries; ends what
   * ran out; mails the end of an introductory offer ahead of its first full-price period.
   */
  renew(asOf: IsoDate): Promise<RenewalCounts>;
  /** The provider's word on a charge's payment, applied once; undefined for ids no charge has. */
  sync(paymentId: string): Promise<{ subscriptionId: string; status: SubscriptionStatus } | undefined>;
}

/** The invoice number of a charge: the subscription and the period, readable and unique. */
export function invoiceNumber(charge: Pick<SubscriptionCharge, "subscriptionId" | "periodStart">): string {
  return `FH-A-${charge.subscriptionId.slice(0, 8).toUpperCase()}-${charge.periodStart.replaceAll("-", "")}`;
}

/**
 * The next periods of running subscriptions (ADR 0099): each is charged on the mandate the
 * first payment made, on its first day, by the renewal job; a failed charge is tried again
 * after 3 and 7 days. A charge's row is claimed before the provider is asked, and the
 * provider's idempotency key is the same row's (subscription, period, attempt): a run
 * repeated, or two at once, charge each attempt once.
 */
export function subscriptionCharges(deps: SubscriptionChargesDeps): SubscriptionCharges {
  const { db, provider, subscriptions, i18n, log, now } = deps;
  const charges = subscriptionChargeRepository(db);
  const planChanges = subscriptionPlanChanges(deps);
  const routes = i18n.routes;
  const webhookUrl = `${deps.origin}${routes.pathFor("paymentWebhook", "nl")}`;
  const pageUrl = (subscription: Subscription) =>
    `${deps.origin}${routes.pathFor("subscriptionStatus", subscription.locale as Locale, { subscription: subscription.id })}`;

  /** Asks the provider for a claimed charge's payment; the same key gives the same payment back. */
  async function askProvider(subscription: Subscription, charge: SubscriptionCharge): Promise<boolean> {
    const locale = subscription.locale as Locale;
    const t = i18n.t[locale];
    if (!subscription.customerId || !subscription.mandateId) return false;
    try {
      const created = await provider.createRecurringPayment({
        amountCents: charge.amountCents,
        description: t("subscriptionPayment.description", {
          shop: t("site.name"),
          plan: t(`subscription.plans.${subscription.planId}.name`),
        }),
        locale,
        customerId: subscription.customerId,
        mandateId: subscription.mandateId,
        webhookUrl,
        testReturnUrl: pageUrl(subscription),
        idempotencyKey: `subscription-${subscription.id}-${charge.periodStart}-${charge.attempt}`,
        metadata: { subscription: subscription.id, period: charge.periodStart },
      });
      await charges.attachPayment(
        charge.id,
        { paymentId: created.id, status: created.status, pageUrl: created.testPageUrl },
        now(),
      );
      return true;
    } catch (err) {
      if (err instanceof PaymentProviderUnavailable) {
        log.warn(
          { err, subscription: subscription.id },
          "charge not made: the provider is unavailable; next run tries again",
        );
        return false;
      }
      if (err instanceof PaymentProviderError) {
        // The mandate is not valid (revoked at the bank, say): the charge fails like a refused one.
        log.warn(
          { err, subscription: subscription.id },
          "the provider refused the charge; it counts as failed",
        );
        await applyOutcome(charge.id, "failed");
        return true;
      }
      throw err;
    }
  }

  /**
   * A charge's outcome, once: under the subscription's lock, the charge row is read again and
   * changed only while undecided; the lifecycle's change and its mail share the transaction.
   */
  async function applyOutcome(chargeId: number, status: "paid" | "failed" | "canceled" | "expired") {
    const at = now();
    let mailed = false;
    const result = await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom("subscription_charges")
        .select("subscription_id")
        .where("id", "=", chargeId)
        .executeTakeFirstOrThrow();
      const subscription = await subscriptions.lockedSubscription(trx, row.subscription_id);
      if (!subscription) return undefined;
      const charge = (await trx
        .selectFrom("subscription_charges")
        .selectAll()
        .where("id", "=", chargeId)
        .executeTakeFirstOrThrow()) as { status: string; payment_id: string | null };
      if (isDecided(charge.status)) return subscription.status;
      await charges.remember(chargeId, status, at, trx);
      // By its id: a charge the provider refused outright has no payment id.
      const full = await charges.byId(chargeId, trx);
      const paymentId = charge.payment_id ?? `claim-${chargeId}`;
      const locale = subscription.locale as Locale;
      const t = i18n.t[locale];
      if (status === "paid") {
        const period = full ? { start: full.periodStart, end: full.periodEnd } : undefined;
        if (period && subscription.paidUntil && subscription.paidUntil >= period.end) {
          // Paid by hand meanwhile (ADR 0106): the period is paid already; nothing moves on.
          log.error(
            { paymentId, subscription: subscription.id, period: period.start },
            "charge paid for a period already paid by hand: refund it",
          );
          return subscription.status;
        }
        const applied = await subscriptions.transitionIn(
          trx,
          subscription,
          { type: "charge_paid", paymentId },
          at,
          async (inner, changed) => {
            if (!full) return;
            await enqueueMail(
              inner,
              subscriptionRenewedMail(t, changed, { ...full, paymentId }, invoiceNumber(full), at),
              at,
            );
            mailed = true;
          },
          period,
        );
        if (applied.kind === "refused")
          log.error(
            { paymentId, subscription: subscription.id, status: applied.status },
            `charge refused: ${applied.reason}`,
          );
        return applied.kind === "changed" ? applied.to : subscription.status;
      }
      const attempt = full?.attempt ?? 1;
      const applied = await subscriptions.transitionIn(
        trx,
        subscription,
        { type: "charge_failed", paymentId, attempt },
        at,
        undefined,
      );
      const after = applied.kind === "changed" ? applied.to : subscription.status;
      // The mail's link pays this charge's period by hand (ADR 0106): its token proves the mailbox.
      const link = newLinkToken();
      if (
        (after === "past_due" || after === "suspended") &&
        (await charges.markFailureMailed(chargeId, at, trx, link.hash))
      ) {
        const amount = { amountCents: full?.amountCents ?? 0, periodStart: full?.periodStart ?? "" };
        const payUrl = `${deps.origin}${routes.pathFor("subscriptionPayByHand", locale, { token: link.token })}`;
        const outgoing =
          after === "suspended"
            ? subscriptionSuspendedMail(t, subscription, amount, payUrl)
            : subscriptionChargeFailedMail(
                t,
                subscription,
                amount,
                addDays(amount.periodStart, chargeRetryDays[attempt - 1] ?? 0),
                payUrl,
              );
        await enqueueMail(trx, outgoing, at);
        mailed = true;
      }
      return after;
    });
    if (mailed) deps.mailQueued?.();
    return result;
  }

  async function sync(paymentId: string) {
    if (!provider.isPaymentId(paymentId)) return undefined;
    const charge = await charges.byPayment(paymentId);
    if (!charge) return undefined;
    const payment = await provider.getPayment(paymentId);
    if (!payment) return undefined;
    const current = await subscriptions.get(charge.subscriptionId);
    if (!current) return undefined;
    if (payment.status === "paid" && payment.amountCents !== charge.amountCents) {
      log.error(
        {
          paymentId,
          subscription: charge.subscriptionId,
          paid: payment.amountCents,
          asked: charge.amountCents,
        },
        "a charge was paid for another amount than the shop asked: the subscription stays as it is; check it by hand",
      );
      return { subscriptionId: charge.subscriptionId, status: current.status };
    }
    if (
      payment.status === "paid" ||
      payment.status === "failed" ||
      payment.status === "canceled" ||
      payment.status === "expired"
    ) {
      const status = await applyOutcome(charge.id, payment.status);
      return { subscriptionId: charge.subscriptionId, status: status ?? current.status };
    }
    if (payment.status !== charge.status) await charges.remember(charge.id, payment.status, now());
    return { subscriptionId: charge.subscriptionId, status: current.status };
  }

  /** One subscription whose paid period ended before `asOf`: renew, retry, wait, or end it. */
  async function renewOne(due: Subscription, asOf: IsoDate, counts: RenewalCounts) {
    let subscription = due;
    const at = now();
    if (subscription.status === "cancelling") {
      const ended = await subscriptions.applyEvent(subscription.id, { type: "period_ended" }, at);
      if (ended.kind === "changed") {
        counts.ended++;
        await revoke(subscription);
      }
      return;
    }
    if (!subscriptionCharged(subscription.status) || !subscription.paidUntil) return;
    if (!subscription.mandateId || !subscription.customerId) {
      // Paid once, before the shop could renew (or with a method that makes no mandate): it
      // was promised not to renew, so it ends with its period.
      if (subscription.status !== "active") return;
      await subscriptions.applyEvent(subscription.id, { type: "notice_given" }, at);
      const ended = await subscriptions.applyEvent(subscription.id, { type: "period_ended" }, at);
      if (ended.kind === "changed") counts.ended++;
      return;
    }
    const start = addDays(subscription.paidUntil, 1);
    const latest = await charges.latestFor(subscription.id, start);
    if (latest && latest.paymentId === undefined && latest.status === "claimed") {
      // Claimed by a run that is still asking the provider: left to it. Claimed long ago and
      // never answered (the provider was away): asked again, with the same key.
      if (at.getTime() - Date.parse(latest.createdAt) < staleClaimMs) return;
      if (await askProvider(subscription, latest)) counts.charged++;
      else counts.unavailable++;
      return;
    }
    if (latest?.paymentId && !isDecided(latest.status)) {
      await sync(latest.paymentId).catch((err: unknown) =>
        log.warn(
          { err, paymentId: latest.paymentId },
          "charge status could not be fetched; next run asks again",
        ),
      );
      counts.synced++;
      return;
    }
    let attempt = 1;
    if (latest) {
      if (latest.status === "paid" || latest.attempt >= lastChargeAttempt) return;
      attempt = latest.attempt + 1;
      const retryOn = addDays(start, chargeRetryDays[attempt - 2] ?? 0);
      if (asOf < retryOn) return;
    } else if (subscription.status !== "active") {
      return;
    }
    // A downgrade waiting for this period (ADR 0108) sets the plan it is charged at.
    if (attempt === 1 && (await applyScheduledPlanChange(deps, subscription.id, start))) {
      const changed = await subscriptions.get(subscription.id);
      if (changed) subscription = changed;
    }
    const number = (await charges.paidPeriods(subscription.id)) + 2;
    const claimed = await charges.claim(
      {
        subscriptionId: subscription.id,
        periodStart: start,
        periodEnd: periodEnd(start),
        attempt,
        dueOn: attempt === 1 ? start : addDays(start, chargeRetryDays[attempt - 2] ?? 0),
        amountCents: periodCents(subscription, number),
        method: "mandate",
        provider: provider.name,
      },
      at,
    );
    // Another run claimed it first: that run asks the provider.
    if (!claimed.claimed) return;
    if (await askProvider(subscription, claimed.charge)) counts.charged++;
    else counts.unavailable++;
  }

  async function revoke(subscription: Subscription) {
    if (!subscription.customerId || !subscription.mandateId) return;
    try {
      await provider.revokeMandate({
        customerId: subscription.customerId,
        mandateId: subscription.mandateId,
      });
    } catch (err) {
      log.warn(
        { err, subscription: subscription.id },
        "mandate not revoked; nothing is charged on it anyway",
      );
    }
  }

  return {
    sync,
    async renew(asOf) {
      const counts: RenewalCounts = {
        charged: 0,
        synced: 0,
        ended: 0,
        unavailable: 0,
        priceNotices: 0,
        upgradesSettled: 0,
      };
      counts.upgradesSettled = await planChanges.settleUnfinished();
      const due = await db
        .selectFrom("subscriptions")
        .select("id")
        .where("status", "in", ["active", "past_due", "suspended", "cancelling"])
        .where("paid_until", "<", asOf)
        .orderBy("paid_until")
        .execute();
      for (const { id } of due) {
        const subscription = await subscriptions.get(id);
        if (!subscription) continue;
        try {
          await renewOne(subscription, asOf, counts);
        } catch (err) {
          log.warn({ err, subscription: id }, "renewal failed for one subscription; next run tries again");
        }
      }
      counts.priceNotices = await announcePriceChanges(deps, asOf);
      return counts;
    },
  };
}

/** The charge's payment is decided for good ("claimed" is the shop's own word: not yet asked). */
function isDecided(status: string): boolean {
  return isPaymentStatus(status) && isFinalStatus(status);
}

/**
 * The address charges' webhooks and mails' links are built from: a charge has no request to
 * take it from. PUBLIC_URL when set (every production start sets it), else the local shop.
 */
export function shopOrigin(config: { publicUrl: string | undefined; port: number }): string {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/$/, "");
}
