import { formatPrice } from "../domain/money.ts";
import { unpaidSubscriptionExpiryHours } from "../domain/subscription-lifecycle.ts";
import type { Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import { signupLinkHours } from "../store/signup-repository.ts";
import type { Subscription } from "../store/subscription-repository.ts";
import { mailDate } from "./order-confirmation.ts";
import type { OutgoingMail } from "./outbox.ts";
import { type PaidPeriod, subscriptionInvoice } from "./subscription-invoice.ts";

/** A subscription as its mails name it: the subscriber, the plan's name, the language. */
type Subscriber = Pick<Subscription, "name" | "email" | "locale"> & Partial<Pick<Subscription, "accountId">>;

/** The subscriber's account, if any: deleting it erases the subscription's mails too. */
const ofAccount = (subscription: Subscriber) =>
  subscription.accountId ? { accountId: subscription.accountId } : {};

const planName = (t: Translate, planId: string) => t(`subscription.plans.${planId}.name`);

/**
 * The link that confirms a sign-up's address, in the language of the form it came from.
 * Only the address's owner can use it: that is what makes the subscription.
 */
export function subscriptionConfirmMail(
  t: Translate,
  locale: Locale,
  signup: { email: string; name: string; planId: string; firstPeriodCents: number },
  link: string,
): OutgoingMail {
  return {
    kind: "subscription-confirm",
    locale,
    to: signup.email,
    subject: t("subscription.mail.confirmSubject"),
    text: t("subscription.mail.confirmBody", {
      name: signup.name,
      plan: planName(t, signup.planId),
      price: formatPrice(signup.firstPeriodCents, locale),
      link,
      hours: signupLinkHours,
    }),
  };
}

/**
 * The first period is paid: the subscription is active until `paidUntil`, and the mail is
 * the first month's invoice. `renews`: the payment made a mandate, so the next periods are
 * charged on it; without one it ends.
 */
export function subscriptionActiveMail(
  t: Translate,
  subscription: Pick<Subscription, "id" | "planId" | "country" | "name" | "email" | "locale"> &
    Partial<Pick<Subscription, "accountId">>,
  firstPeriod: PaidPeriod & { invoice: string; paidAt: Date },
  renews = true,
): OutgoingMail {
  const locale = subscription.locale as Locale;
  const invoice = subscriptionInvoice(t, subscription, firstPeriod, firstPeriod.invoice, firstPeriod.paidAt);
  return {
    kind: "subscription-welcome",
    ...ofAccount(subscription),
    locale,
    to: subscription.email,
    subject: t("subscription.mail.subject", { plan: planName(t, subscription.planId), ...invoice }),
    text: t("subscription.mail.body", {
      name: subscription.name,
      plan: planName(t, subscription.planId),
      until: mailDate(firstPeriod.periodEnd, locale),
      recurring: t(renews ? "subscription.renewsMonthly" : "subscription.noRenewal"),
      ...invoice,
    }),
  };
}

/** A payment for the first period did not go through: the link leads to the page that pays again. */
export function subscriptionPaymentFailedMail(
  t: Translate,
  subscription: Subscriber & Pick<Subscription, "planId">,
  amountCents: number,
  link: string,
): OutgoingMail {
  const locale = subscription.locale as Locale;
  return {
    kind: "subscription-payment-failed",
    ...ofAccount(subscription),
    locale,
    to: subscription.email,
    subject: t("subscription.mail.failedSubject"),
    text: t("subscription.mail.failedBody", {
      name: subscription.name,
      plan: planName(t, subscription.planId),
      amount: formatPrice(amountCents, locale),
      link,
      hours: unpaidSubscriptionExpiryHours,
    }),
  };
}

/** Unpaid for a day after confirming: the sign-up lapsed, nothing was taken. */
export function subscriptionExpiredMail(
  t: Translate,
  subscription: Subscriber & Pick<Subscription, "planId">,
): OutgoingMail {
  return {
    kind: "subscription-expired",
    ...ofAccount(subscription),
    locale: subscription.locale as Locale,
    to: subscription.email,
    subject: t("subscription.mail.expiredSubject"),
    text: t("subscription.mail.expiredBody", {
      name: subscription.name,
      plan: planName(t, subscription.planId),
      hours: unpaidSubscriptionExpiryHours,
    }),
  };
}

/**
 * For an address that already has an active subscription, instead of a link: someone (maybe
 * its owner, maybe not) tried to sign up with it. The form answers as for a new sign-up, so
 * only the mailbox's owner learns that the address is known. Nothing the sign-up form was
 * given appears in it (not the name): a stranger's words never reach someone else's inbox.
 */
export function alreadySubscribedMail(
  t: Translate,
  locale: Locale,
  address: string,
  supportEmail: string,
): OutgoingMail {
  return {
    kind: "subscription-already-subscribed",
    locale,
    to: address,
    replyTo: supportEmail,
    subject: t("subscription.mail.alreadySubject"),
    text: t("subscription.mail.alreadyBody", { supportEmail }),
  };
}
