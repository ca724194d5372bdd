import type { FastifyBaseLogger } from "fastify";
import type { Kysely, Selectable } from "kysely";
import type { SubscriptionStatus } from "../domain/subscription-lifecycle.ts";
import type { IsoDate } from "../domain/working-days.ts";
import type { I18n } from "../i18n/index.ts";
import type { Locale } from "../i18n/locales.ts";
import { mailDate } from "../mail/order-confirmation.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { subscriptionPaidByHandMail } from "../mail/subscription-renewal-mails.ts";
import { hashLinkToken, isLinkToken } from "../store/link-token.ts";
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
  PaymentProviderUnavailable,
  type PaymentStatus,
} from "./provider.ts";
import { invoiceNumber } from "./subscription-charges.ts";

/** A failed or suspended mail's link pays its period for this many days after the mail. */
export const byHandLinkDays = 60;

/** One payment a subscriber started from the link (by_hand_payments). */
export interface ByHandPayment {
  id: number;
  subscriptionId: string;
  chargeId: number;
  periodStart: IsoDate;
  periodEnd: IsoDate;
  attempt: number;
  amountCents: number;
  paymentId: string;
  status: PaymentStatus;
  checkoutUrl: string;
  createdAt: string;
}

/**
 * What the link shows: unknown or expired; the open period with the latest payment started
 * for it ("open"); the period paid (by hand or by a later charge); or nothing to pay any more
 * (the subscription ended, or a later period is the open one: "closed").
 */
export type ByHandLink =
  | { state: "unknown" }
  | { state: "expired" }
  | {
      state: "open" | "paid" | "closed";
      subscription: Subscription;
      charge: SubscriptionCharge;
      latest: ByHandPayment | undefined;
    };

export type ByHandStart =
  | { kind: "started"; checkoutUrl: string }
  | { kind: "not-payable"; link: ByHandLink }
  | { kind: "unavailable" };

export interface ByHandPayments {
  /** The link's period and where paying it stands; asks the provider about an undecided payment first. */
  link(token: string): Promise<ByHandLink>;
  /** Starts the period's payment, or gives the undecided one back: one payment at a time. */
  start(token: string, options: { origin: string }): Promise<ByHandStart>;
  /** The provider's word on a by-hand payment, applied once; undefined for ids it never started. */
  sync(paymentId: string): Promise<{ subscriptionId: string; status: SubscriptionStatus } | undefined>;
  /** Every by-hand payment of a subscription, oldest first (the command's `show`). */
  ofSubscription(subscriptionId: string): Promise<ByHandPayment[]>;
}

export interface ByHandPaymentsDeps {
  db: Kysely<Schema>;
  provider: PaymentProvider;
  subscriptions: SubscriptionRepository;
  i18n: I18n;
  log: Pick<FastifyBaseLogger, "info" | "warn" | "error">;
  now: () => Date;
  mailQueued?: () => void;
}

function paymentOf(row: Selectable<Schema["by_hand_payments"]>): ByHandPayment {
  return {
    id: Number(row.id),
    subscriptionId: row.subscription_id,
    chargeId: Number(row.charge_id),
    periodStart: row.period_start,
    periodEnd: row.period_end,
    attempt: Number(row.attempt),
    amountCents: Number(row.amount_cents),
    paymentId: row.payment_id,
    // A status the shop did not write is treated as undecided: asked again, never acted on.
    status: isPaymentStatus(row.status) ? row.status : "open",
    checkoutUrl: row.checkout_url,
    createdAt: row.created_at,
  };
}

/** The period is paid: the subscription's paid period reaches its end. */
const periodPaid = (subscription: Subscription, charge: Pick<SubscriptionCharge, "periodEnd">) =>
  Boolean(subscription.paidUntil && subscription.paidUntil >= charge.periodEnd);

/**
 * Paying a failed period by hand (ADR 0106): the failed or suspended mail's link opens a
 * page with the period, its amount and one button. The button starts a first payment on the
 * subscription's provider customer, so that paying also gives a new mandate, which the next
 * periods are charged on (changing the method is paying with another one; the old mandate
 * is revoked once the new one is stored). Its outcome comes
 * through the webhook like every payment's: paid, the period counts as paid, the lifecycle's
 * charge_paid makes the subscription active again, and one mail with the invoice says so.
 */
export function byHandPayments(deps: ByHandPaymentsDeps): ByHandPayments {
  const { db, provider, subscriptions, i18n, log, now } = deps;
  const charges = subscriptionChargeRepository(db);
  const routes = i18n.routes;

  const latestFor = async (subscriptionId: string, periodStart: IsoDate, trx: Kysely<Schema> = db) => {
    const row = await trx
      .selectFrom("by_hand_payments")
      .selectAll()
      .where("subscription_id", "=", subscriptionId)
      .where("period_start", "=", periodStart)
      .orderBy("attempt", "desc")
      .limit(1)
      .executeTakeFirst();
    return row ? paymentOf(row) : undefined;
  };

  const byPayment = async (paymentId: string, trx: Kysely<Schema> = db) => {
    const row = await trx
      .selectFrom("by_hand_payments")
      .selectAll()
      .where("payment_id", "=", paymentId)
      .executeTakeFirst();
    return row ? paymentOf(row) : undefined;
  };

  const remember = (id: number, status: PaymentStatus, trx: Kysely<Schema> = db) =>
    trx
      .updateTable("by_hand_payments")
      .set({ status, updated_at: now().toISOString() })
      .where("id", "=", id)
      .execute();

  /** The link's charge and subscription, as they stand now (no provider asked). */
  async function read(token: string): Promise<ByHandLink> {
    if (!isLinkToken(token)) return { state: "unknown" };
    const charge = await charges.byPayLink(hashLinkToken(token));
    if (!charge) return { state: "unknown" };
    const subscription = await subscriptions.get(charge.subscriptionId);
    if (!subscription) return { state: "unknown" };
    const latest = await latestFor(subscription.id, charge.periodStart);
    if (periodPaid(subscription, charge)) return { state: "paid", subscription, charge, latest };
    const mailedAt = Date.parse(charge.failureMailedAt ?? charge.createdAt);
    if (now().getTime() - mailedAt > byHandLinkDays * 86_400_000) return { state: "expired" };
    // Past due or suspended on this very period; anything else (ended, a later period) has nothing to pay here.
    const open =
      (subscription.status === "past_due" || subscription.status === "suspended") &&
      subscription.paidUntil !== undefined &&
      subscription.paidUntil < charge.periodStart;
    return { state: open ? "open" : "closed", subscription, charge, latest };
  }

  async function sync(paymentId: string) {
    if (!provider.isPaymentId(paymentId)) return undefined;
    const row = await byPayment(paymentId);
    if (!row) return undefined;
    const payment = await provider.getPayment(paymentId);
    if (!payment) return undefined;
    const current = await subscriptions.get(row.subscriptionId);
    if (!current) return undefined;
    const result = (status: SubscriptionStatus) => ({ subscriptionId: row.subscriptionId, status });
    if (payment.status !== "paid") {
      if (payment.status !== row.status) await remember(row.id, payment.status);
      return result(current.status);
    }
    if (payment.amountCents !== row.amountCents) {
      await remember(row.id, payment.status);
      log.error(
        { paymentId, subscription: row.subscriptionId, paid: payment.amountCents, asked: row.amountCents },
        "a by-hand payment was paid for another amount than the shop asked: the subscription stays as it is; check it by hand",
      );
      return result(current.status);
    }
    const at = now();
    let mailed = false;
    /** The mandate the new one replaced: revoked once the change is stored, never before. */
    let replaced: { customerId: string; mandateId: string } | undefined;
    const status = await db.transaction().execute(async (trx) => {
      const subscription = await subscriptions.lockedSubscription(trx, row.subscriptionId);
      if (!subscription) return current.status;
      const again = await byPayment(paymentId, trx);
      if (!again || again.status === "paid") return subscription.status;
      await remember(row.id, "paid", trx);
      if (periodPaid(subscription, row)) {
        // Paid twice (a second device, or a charge paid meanwhile): the period moves on once.
        log.error(
          { paymentId, subscription: subscription.id, period: row.periodStart },
          "by-hand payment paid for a period already paid: refund it",
        );
        return subscription.status;
      }
      const period = { start: row.periodStart, end: row.periodEnd };
      const applied = await subscriptions.transitionIn(
        trx,
        subscription,
        { type: "charge_paid", paymentId },
        at,
        async (inner, changed) => {
          // The method just used is the one the next periods are charged on.
          if (payment.mandateId) {
            await subscriptions.rememberProvider(subscription.id, { mandateId: payment.mandateId }, inner);
            if (
              subscription.customerId &&
              subscription.mandateId &&
              subscription.mandateId !== payment.mandateId
            )
              replaced = { customerId: subscription.customerId, mandateId: subscription.mandateId };
          }
          const t = i18n.t[subscription.locale as Locale];
          await enqueueMail(
            inner,
            subscriptionPaidByHandMail(t, changed, { ...row, paymentId }, invoiceNumber(row), at),
            at,
          );
          mailed = true;
        },
        period,
      );
      if (applied.kind === "refused") {
        log.error(
          { paymentId, subscription: subscription.id, status: applied.status },
          `by-hand payment refused: ${applied.reason}`,
        );
        return subscription.status;
      }
      return applied.kind === "changed" ? applied.to : subscription.status;
    });
    if (mailed) deps.mailQueued?.();
    // The old method may not be charged again: the provider forgets it. Failing that, nothing
    // is charged on it anyway (the next periods use the new mandate); the log says to check it.
    if (replaced) {
      await provider
        .revokeMandate(replaced)
        .catch((err: unknown) =>
          log.warn(
            { err, subscription: row.subscriptionId },
            "replaced mandate not revoked; revoke it by hand",
          ),
        );
    }
    return result(status);
  }

  /** The link as it stands, after asking the provider about its undecided payment. */
  async function link(token: string): Promise<ByHandLink> {
    const first = await read(token);
    if (first.state !== "open" || !first.latest || isFinalStatus(first.latest.status)) return first;
    try {
      await sync(first.latest.paymentId);
    } catch (err) {
      // The page shows what was known; the webhook brings the rest.
      log.warn({ err, paymentId: first.latest.paymentId }, "by-hand payment status could not be fetched");
      return first;
    }
    return read(token);
  }

  return {
    link,
    sync,

    async start(token, options) {
      const current = await link(token);
      if (current.state !== "open") return { kind: "not-payable", link: current };
      const { subscription, charge, latest } = current;
      // The payment under way is given back, never a second one beside it.
      if (latest && !isFinalStatus(latest.status))
        return { kind: "started", checkoutUrl: latest.checkoutUrl };
      const locale = subscription.locale as Locale;
      const t = i18n.t[locale];
      const attempt = (latest?.attempt ?? 0) + 1;
      const pageUrl = `${options.origin}${routes.pathFor("subscriptionPayByHand", locale, { token })}`;
      try {
        const created = await provider.createPayment({
          amountCents: charge.amountCents,
          description: t("subscriptionRenewal.byHand.description", {
            shop: t("site.name"),
            plan: t(`subscription.plans.${subscription.planId}.name`),
            from: mailDate(charge.periodStart, locale),
            until: mailDate(charge.periodEnd, locale),
          }),
          locale,
          redirectUrl: pageUrl,
          webhookUrl: `${options.origin}${routes.pathFor("paymentWebhook", "nl")}`,
          idempotencyKey: `by-hand-${subscription.id}-${charge.periodStart}-${attempt}`,
          metadata: { subscription: subscription.id, period: charge.periodStart },
          // A first payment on the customer: paid, it also makes the mandate the next periods use.
          ...(subscription.customerId ? { firstOfCustomer: subscription.customerId } : {}),
        });
        const at = now().toISOString();
        // A double click gets the same payment back from the provider (same key): the second insert does nothing.
        await db
          .insertInto("by_hand_payments")
          .values({
            subscription_id: subscription.id,
            charge_id: charge.id,
            period_start: charge.periodStart,
            period_end: charge.periodEnd,
            attempt,
            amount_cents: charge.amountCents,
            payment_id: created.id,
            provider: provider.name,
            status: created.status,
            checkout_url: created.checkoutUrl,
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.doNothing())
          .execute();
        return { kind: "started", checkoutUrl: created.checkoutUrl };
      } catch (err) {
        if (err instanceof PaymentProviderUnavailable)
          log.warn(
            { err, subscription: subscription.id },
            "by-hand payment not started: provider unavailable",
          );
        else log.error({ err, subscription: subscription.id }, "payment provider refused a by-hand payment");
        return { kind: "unavailable" };
      }
    },

    async ofSubscription(subscriptionId) {
      const rows = await db
        .selectFrom("by_hand_payments")
        .selectAll()
        .where("subscription_id", "=", subscriptionId)
        .orderBy("period_start")
        .orderBy("attempt")
        .execute();
      return rows.map(paymentOf);
    },
  };
}
