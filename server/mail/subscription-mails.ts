import type { Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import type { OutgoingMail } from "./outbox.ts";

/** The welcome mail of a new subscription, in the language of the form it came from. */
export function subscriptionWelcomeMail(
  t: Translate,
  locale: Locale,
  signup: { email: string; name: string; plan: string; price: string },
): OutgoingMail {
  return {
    kind: "subscription-welcome",
    locale,
    to: signup.email,
    subject: t("subscription.mail.subject"),
    text: t("subscription.mail.body", { name: signup.name, plan: signup.plan, price: signup.price }),
  };
}

/**
 * For an address that already has a subscription, instead of a second one: someone (maybe
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
