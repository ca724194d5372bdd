import { formatPrice } from "../domain/money.ts";
import type { IsoDate } from "../domain/working-days.ts";
import type { Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import type { Subscription } from "../store/subscription-repository.ts";
import { mailDate } from "./order-confirmation.ts";
import type { OutgoingMail } from "./outbox.ts";
import { type PaidPeriod, subscriptionInvoice } from "./subscription-invoice.ts";

/**
 * The mails of a running subscription (ADR 0099), one per fact, each queued in the
 * transaction of its fact: renewed (with the invoice), a charge failed, suspended, notice
 * received, withdrawn, and a change of plan (ADR 0108). In the subscriber's language.
 */
type Subscriber = Pick<Subscription, "id" | "name" | "email" | "locale" | "country" | "planId"> &
  Partial<Pick<Subscription, "accountId">>;

const ofAccount = (subscription: Subscriber) =>
  subscription.accountId ? { accountId: subscription.accountId } : {};

const planName = (t: Translate, planId: string) => t(`subscription.plans.${planId}.name`);

function mail(
  t: Translate,
  subscription: Subscriber,
  kind: string,
  key: string,
  values: Record<string, string | number>,
): OutgoingMail {
  const locale = subscription.locale as Locale;
  return {
    kind,
    ...ofAccount(subscription),
    locale,
    to: subscription.email,
    subject: t(`subscriptionRenewal.mail.${key}Subject`, {
      plan: planName(t, subscription.planId),
      ...values,
    }),
    text: t(`subscriptionRenewal.mail.${key}Body`, {
      name: subscription.name,
      plan: planName(t, subscription.planId),
      id: subscription.id,
      ...values,
    }),
  };
}

/** A next period was paid: the invoice for it (period, amount, the VAT it includes). */
export function subscriptionRenewedMail(
  t: Translate,
  subscription: Subscriber,
  charge: PaidPeriod,
  invoiceNumber: string,
  paidAt: Date,
): OutgoingMail {
  const invoice = subscriptionInvoice(t, subscription, charge, invoiceNumber, paidAt);
  return mail(t, subscription, "subscription-renewed", "renewed", invoice);
}

/** A charge failed; it is tried again on `retryOn`, and the link pays it by hand now. */
export function subscriptionChargeFailedMail(
  t: Translate,
  subscription: Subscriber,
  charge: { amountCents: number; periodStart: IsoDate },
  retryOn: IsoDate,
  link: string,
): OutgoingMail {
  const locale = subscription.locale as Locale;
  return mail(t, subscription, "subscription-charge-failed", "chargeFailed", {
    amount: formatPrice(charge.amountCents, locale),
    from: mailDate(charge.periodStart, locale),
    retry: mailDate(retryOn, locale),
    link,
  });
}

/** The last try failed: storage is read-only and no free prints until the period is paid by hand. */
export function subscriptionSuspendedMail(
  t: Translate,
  subscription: Subscriber,
  charge: { amountCents: number },
  link: string,
): OutgoingMail {
  const locale = subscription.locale as Locale;
  return mail(t, subscription, "subscription-suspended", "suspended", {
    amount: formatPrice(charge.amountCents, locale),
    link,
  });
}

/** Notice received (or the subscription ended at once): what was received, when, and the last day. */
export function subscriptionCancelledMail(
  t: Translate,
  subscription: Subscriber,
  receivedAt: string,
  endsOn: IsoDate,
): OutgoingMail {
  const locale = subscription.locale as Locale;
  return mail(t, subscription, "subscription-cancelled", "cancelled", {
    received: mailDate(receivedAt.slice(0, 10), locale),
    end: mailDate(endsOn, locale),
  });
}

/** Withdrawn within the 14 days: what is paid back, and that nothing more is charged. */
export function subscriptionWithdrawnMail(
  t: Translate,
  subscription: Subscriber,
  on: IsoDate,
  refundCents: number,
): OutgoingMail {
  const locale = subscription.locale as Locale;
  return mail(t, subscription, "subscription-withdrawn", "withdrawn", {
    on: mailDate(on, locale),
    refund: formatPrice(refundCents, locale),
  });
}

/**
 * A failed period paid by hand from the mail's link (ADR 0106): the subscription runs again,
 * with the invoice for that period; the next periods are charged on the method just used.
 */
export function subscriptionPaidByHandMail(
  t: Translate,
  subscription: Subscriber,
  payment: PaidPeriod,
  invoiceNumber: string,
  paidAt: Date,
): OutgoingMail {
  const invoice = subscriptionInvoice(t, subscription, payment, invoiceNumber, paidAt);
  return mail(t, subscription, "subscription-paid-by-hand", "paidByHand", invoice);
}

/**
 * The introductory offer ends: from `periodStart` the plan's own price is charged, and the
 * subscriber can still give notice (the public cancellation form) until the paid period's
 * last day, so that nothing is charged at the new price.
 */
export function subscriptionPriceNoticeMail(
  t: Translate,
  subscription: Subscriber & Pick<Subscription, "offer">,
  next: { periodStart: IsoDate; amountCents: number; lastPaidDay: IsoDate },
  cancelLink: string,
): OutgoingMail {
  const locale = subscription.locale as Locale;
  return mail(t, subscription, "subscription-price-notice", "priceNotice", {
    offer: formatPrice(subscription.offer?.monthlyCents ?? next.amountCents, locale),
    amount: formatPrice(next.amountCents, locale),
    date: mailDate(next.periodStart, locale),
    lastDay: mailDate(next.lastPaidDay, locale),
    link: cancelLink,
  });
}

type ChangeOfPlan = {
  id: number;
  subscriptionId: string;
  from: { planId: string };
  to: { planId: string };
  startsOn: IsoDate;
  periodEnd: IsoDate;
  amountCents: number;
};

/**
 * An upgrade took effect: the new plan from its first day, with the invoice for the rest of
 * the paid period once its charge is paid; or, when the offer made it cost nothing more this
 * period (`paid` undefined), no invoice.
 */
export function subscriptionUpgradedMail(
  t: Translate,
  subscription: Subscriber,
  change: ChangeOfPlan,
  paid: { paymentId: string; invoice: string; at: Date } | undefined,
): OutgoingMail {
  const locale = subscription.locale as Locale;
  const shown = { ...subscription, planId: change.to.planId };
  const values = { previous: planName(t, change.from.planId), start: mailDate(change.startsOn, locale) };
  if (!paid) return mail(t, shown, "subscription-upgraded", "upgradedFree", values);
  // The invoice is for the new plan: the difference for the rest of the period.
  const invoice = subscriptionInvoice(
    t,
    shown,
    {
      periodStart: change.startsOn,
      periodEnd: change.periodEnd,
      amountCents: change.amountCents,
      paymentId: paid.paymentId,
    },
    paid.invoice,
    paid.at,
  );
  return mail(t, shown, "subscription-upgraded", "upgraded", { ...values, ...invoice });
}

/** An upgrade's charge failed: the subscription is back on its plan, and can be upgraded again. */
export function subscriptionUpgradeFailedMail(
  t: Translate,
  subscription: Subscriber,
  change: ChangeOfPlan,
  link: string,
): OutgoingMail {
  const locale = subscription.locale as Locale;
  return mail(t, subscription, "subscription-upgrade-failed", "upgradeFailed", {
    wanted: planName(t, change.to.planId),
    amount: formatPrice(change.amountCents, locale),
    link,
  });
}

/** A downgrade waits for the next period: the plan runs to `lastDay`, then the new one at its price. */
export function subscriptionDowngradeScheduledMail(
  t: Translate,
  subscription: Subscriber,
  change: ChangeOfPlan,
  next: { amountCents: number; lastDay: IsoDate; link: string },
): OutgoingMail {
  const locale = subscription.locale as Locale;
  return mail(t, subscription, "subscription-downgrade-scheduled", "downgradeScheduled", {
    next: planName(t, change.to.planId),
    date: mailDate(change.startsOn, locale),
    lastDay: mailDate(next.lastDay, locale),
    amount: formatPrice(next.amountCents, locale),
    link: next.link,
  });
}
