import type { Translate } from "../i18n/translate.ts";
import type { StoredContactMessage } from "../store/contact-repository.ts";
import type { OutgoingMail } from "./outbox.ts";

export interface ContactMailSettings {
  supportEmail: string;
  /** Received-at as the shopper's locale writes it. */
  dateTime: (date: Date) => string;
}

/** The question as typed, quoted below the mail's own text. */
function quoted(message: StoredContactMessage, t: Translate, subjectLabel: string): string {
  const lines = [
    `${t("contact.fields.name")}: ${message.name}`,
    `${t("contact.fields.email")}: ${message.email}`,
    ...(message.orderNumber ? [`${t("contact.mail.orderNumber")}: ${message.orderNumber}`] : []),
    `${t("contact.fields.subject")}: ${subjectLabel}`,
    "",
    `${t("contact.fields.question")}:`,
    message.question,
  ];
  return lines.join("\n");
}

/**
 * The two mails a contact message causes: a copy for the shopper (in their language,
 * answers go to customer service) and the message for customer service (answers go to
 * the shopper). Only the shopper's address reaches a header, and only after the form's
 * e-mail rule accepted it; what they typed otherwise stays in the body.
 */
export function contactMails(
  message: StoredContactMessage,
  t: Translate,
  settings: ContactMailSettings,
): OutgoingMail[] {
  const subject = t(`contact.subjects.${message.subject}`);
  const copy: OutgoingMail = {
    kind: "contact-copy",
    locale: message.locale,
    to: message.email,
    replyTo: settings.supportEmail,
    subject: t("contact.mail.copySubject", { subject }),
    text: [
      t("contact.mail.copyGreeting", { name: message.name }),
      "",
      // The confirmation the page showed (the spec's text 3), with the address it was sent to.
      t("contact.mail.copyIntro", { emailAddress: message.email }),
      "",
      quoted(message, t, subject),
      "",
      t("contact.mail.copyClosing"),
      "",
    ].join("\n"),
  };
  const support: OutgoingMail = {
    kind: "contact-support",
    locale: message.locale,
    to: settings.supportEmail,
    replyTo: message.email,
    subject: message.orderNumber
      ? t("contact.mail.supportSubjectOrder", { subject, orderNumber: message.orderNumber })
      : t("contact.mail.supportSubject", { subject }),
    text: [
      t("contact.mail.supportIntro"),
      "",
      `${t("contact.mail.reference")}: ${message.id}`,
      `${t("contact.mail.received")}: ${settings.dateTime(message.receivedAt)}`,
      `${t("contact.mail.language")}: ${t("language.name")}`,
      "",
      quoted(message, t, subject),
      "",
    ].join("\n"),
  };
  return [copy, support];
}
