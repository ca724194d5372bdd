import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import {
  isSubscriptionStatus,
  type SubscriptionStatus,
  subscriptionAwaitsPayment,
} from "../domain/subscription-lifecycle.ts";
import type { I18n } from "../i18n/index.ts";
import type { Locale } from "../i18n/locales.ts";
import { enqueueMail } from "../mail/outbox.ts";
import {
  subscriptionActiveMail,
  subscriptionExpiredMail,
  subscriptionPaymentFailedMail,
} from "../mail/subscription-mails.ts";
import type { Schema } from "../store/schema.ts";
import {
  type AfterSubscriptionChange,
  firstPeriodCents,
  type Subscription,
  type SubscriptionRepository,
} from "../store/subscription-repository.ts";
import {
  appliedOf,
  type PayableKind,
  type PayableSubject,
  payablePayments,
  type StartResult,
} from "./payable.ts";
import type { PaymentProvider, PaymentStatus } from "./provider.ts";
import { invoiceNumber } from "./subscription-charges.ts";

export interface SubscriptionPayments {
  /** Starts (or offers again the open) payment of the first period; as orderPayments.start. */
  start(subscriptionId: string, options: { origin: string; method?: string }): Promise<StartResult>;
  /** The provider's word on this payment, applied once; undefined for ids no subscription started. */
  sync(paymentId: string): Promise<{ subscriptionId: string; status: SubscriptionStatus } | undefined>;
  latest(subscriptionId: string): Promise<{ paymentId: string; status: PaymentStatus } | undefined>;
}

export interface SubscriptionPaymentsDeps {
  db: Kysely<Schema>;
  provider: PaymentProvider;
  subscriptions: SubscriptionRepository;
  i18n: I18n;
  log: Pick<FastifyBaseLogger, "info" | "warn" | "error">;
  now: () => Date;
  mailQueued?: () => void;
}

interface PayableSubscription extends PayableSubject {
  subscription: Subscription;
}

/**
 * The payment of a subscription's first period, through the same machinery as an order's
 * (payable.ts): paid makes the subscription active and queues its welcome mail in that
 * transaction; a failed payment leaves it waiting, with one mail that leads back to its page.
 */
export function subscriptionPayments(deps: SubscriptionPaymentsDeps): SubscriptionPayments {
  const { subscriptions, i18n, now } = deps;
  const routes = i18n.routes;

  const kind: PayableKind<PayableSubscription> = {
    name: "subscription",
    table: "subscription_payments",
    subjectColumn: "subscription_id",
    subjectTable: "subscriptions",
    async load(id) {
      const subscription = await subscriptions.get(id);
      if (!subscription) return undefined;
      return {
        id: subscription.id,
        locale: subscription.locale as Locale,
        amountCents: firstPeriodCents(subscription),
        status: subscription.status,
        subscription,
      };
    },
    awaitsPayment: (status) => isSubscriptionStatus(status) && subscriptionAwaitsPayment(status),
    describe({ subscription, locale }) {
      const t = i18n.t[locale];
      return {
        description: t("subscriptionPayment.description", {
          shop: t("site.name"),
          plan: t(`subscription.plans.${subscription.planId}.name`),
        }),
        pagePath: routes.pathFor("subscriptionStatus", locale, { subscription: subscription.id }),
        metadata: { subscription: subscription.id },
      };
    },
    async prepare({ subscription, locale }) {
      if (subscription.customerId) return { firstOfCustomer: subscription.customerId };
      // The customer whose mandate the first payment makes; the key gives a retry the same one.
      const customer = await deps.provider.createCustomer({
        name: subscription.name,
        email: subscription.email,
        locale,
        idempotencyKey: `customer-subscription-${subscription.id}`,
      });
      await subscriptions.rememberProvider(subscription.id, { customerId: customer.id });
      return { firstOfCustomer: customer.id };
    },
    applyPaid: async ({ subscription, locale }, paymentId, amountCents, at, _pageUrl, payment) =>
      appliedOf(
        await subscriptions.applyEvent(subscription.id, { type: "payment_paid", paymentId }, at, {
          afterChange: async (trx, changed, change) => {
            if (change.to !== "active") return;
            // The mandate the first payment made: the next periods are charged on it.
            if (payment.mandateId)
              await subscriptions.rememberProvider(subscription.id, { mandateId: payment.mandateId }, trx);
            // Activation gave the first period its dates: the welcome is its invoice.
            if (!changed.paidFrom || !changed.paidUntil)
              throw new Error("an active subscription has a paid period");
            const firstPeriod = { periodStart: changed.paidFrom, periodEnd: changed.paidUntil };
            await enqueueMail(
              trx,
              subscriptionActiveMail(
                i18n.t[locale],
                changed,
                {
                  ...firstPeriod,
                  amountCents,
                  paymentId,
                  invoice: invoiceNumber({
                    subscriptionId: subscription.id,
                    periodStart: firstPeriod.periodStart,
                  }),
                  paidAt: change.at,
                },
                Boolean(payment.mandateId),
              ),
              change.at,
            );
          },
        }),
      ),
    applyFailure: async ({ subscription }, type, paymentId, at) =>
      appliedOf(await subscriptions.applyEvent(subscription.id, { type, paymentId }, at)),
    failureMail: ({ subscription, locale, amountCents }, pageUrl) =>
      subscriptionPaymentFailedMail(i18n.t[locale], subscription, amountCents, pageUrl),
  };

  const payments = payablePayments(kind, {
    db: deps.db,
    provider: deps.provider,
    log: deps.log,
    now,
    mailQueued: deps.mailQueued ?? (() => {}),
    webhookPath: routes.pathFor("paymentWebhook", "nl"),
  });

  return {
    start: (subscriptionId, options) => payments.start(subscriptionId, options),
    async sync(paymentId) {
      const synced = await payments.sync(paymentId);
      return synced && { subscriptionId: synced.subjectId, status: synced.status as SubscriptionStatus };
    },
    latest: (subscriptionId) => payments.latest(subscriptionId),
  };
}

/**
 * For the clean-up job: the "sign-up expired" mail, queued in the transaction that expires
 * the subscription, so each gets exactly one.
 */
export function queueSubscriptionExpiredMail(i18n: I18n): AfterSubscriptionChange {
  return async (trx, subscription, change) => {
    if (change.to !== "expired") return;
    const locale = subscription.locale as Locale;
    await enqueueMail(trx, subscriptionExpiredMail(i18n.t[locale], subscription), change.at);
  };
}
