import type { Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import { signupLinkHours } from "../store/signup-repository.ts";
import type { OutgoingMail } from "./outbox.ts";

/**
 * The mails of an account's life: the link that confirms a new account, a password reset,
 * a new address and the notice to the old one, a changed password, a deleted account. Each
 * in the language the shopper used; a link's mail names nothing a stranger could have typed
 * but the name the shopper gave for their own address.
 */

/** A single-use link for an account works this long (password reset: one hour, as asked). */
export const resetLinkHours = 1;
export const emailLinkHours = 24;

interface Person {
  /** The account's id, once there is one: its mails are erased with it. */
  id?: string;
  name: string;
  email: string;
}

const mail = (
  kind: string,
  locale: Locale,
  to: string,
  subject: string,
  text: string,
  accountId?: string,
): OutgoingMail => ({
  kind,
  locale,
  to,
  subject,
  text,
  ...(accountId ? { accountId } : {}),
});

export function accountConfirmMail(t: Translate, locale: Locale, who: Person, link: string): OutgoingMail {
  return mail(
    "account-confirm",
    locale,
    who.email,
    t("account.mail.confirmSubject"),
    t("account.mail.confirmBody", { name: who.name, link, hours: signupLinkHours }),
    who.id,
  );
}

/** Someone tried to make an account for an address that has one: to that address, with the way back in. */
export function accountKnownMail(
  t: Translate,
  locale: Locale,
  address: string,
  resetPage: string,
): OutgoingMail {
  return mail(
    "account-known",
    locale,
    address,
    t("account.mail.knownSubject"),
    t("account.mail.knownBody", { link: resetPage }),
  );
}

export function passwordResetMail(t: Translate, locale: Locale, who: Person, link: string): OutgoingMail {
  return mail(
    "password-reset",
    locale,
    who.email,
    t("account.mail.resetSubject"),
    t("account.mail.resetBody", { name: who.name, link }),
    who.id,
  );
}

/** The address of an account made before sign-up links: confirmed before it signs in. */
export function verifyEmailMail(t: Translate, locale: Locale, who: Person, link: string): OutgoingMail {
  return mail(
    "account-verify",
    locale,
    who.email,
    t("account.mail.verifySubject"),
    t("account.mail.verifyBody", { name: who.name, link, hours: emailLinkHours }),
    who.id,
  );
}

/** To the new address: the link that makes it the account's. */
export function emailChangeMail(
  t: Translate,
  locale: Locale,
  who: Person,
  newEmail: string,
  link: string,
): OutgoingMail {
  return mail(
    "email-change",
    locale,
    newEmail,
    t("account.mail.emailChangeSubject"),
    t("account.mail.emailChangeBody", { name: who.name, link, hours: emailLinkHours }),
    who.id,
  );
}

/** To the old address: a change was asked for, and what to do if it was not them. */
export function emailChangeNoticeMail(
  t: Translate,
  locale: Locale,
  who: Person,
  newEmail: string,
  supportEmail: string,
): OutgoingMail {
  return {
    ...mail(
      "email-change-notice",
      locale,
      who.email,
      t("account.mail.emailNoticeSubject"),
      t("account.mail.emailNoticeBody", { name: who.name, newEmail, supportEmail }),
      who.id,
    ),
    replyTo: supportEmail,
  };
}

export function passwordChangedMail(
  t: Translate,
  locale: Locale,
  who: Person,
  supportEmail: string,
): OutgoingMail {
  return {
    ...mail(
      "password-changed",
      locale,
      who.email,
      t("account.mail.passwordChangedSubject"),
      t("account.mail.passwordChangedBody", { name: who.name, supportEmail }),
      who.id,
    ),
    replyTo: supportEmail,
  };
}

/**
 * Written after the account and its other mails were erased: it names only the address it
 * goes to (not the name, which is gone), and belongs to no account any more.
 */
export function accountDeletedMail(
  t: Translate,
  locale: Locale,
  address: string,
  supportEmail: string,
): OutgoingMail {
  return {
    ...mail(
      "account-deleted",
      locale,
      address,
      t("account.mail.deletedSubject"),
      t("account.mail.deletedBody", { supportEmail }),
    ),
    replyTo: supportEmail,
  };
}
