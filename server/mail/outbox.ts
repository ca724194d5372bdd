import type { Kysely } from "kysely";
import type { Locale } from "../i18n/locales.ts";
import type { Schema } from "../store/schema.ts";

/** A mail as the shop composes it; the sender turns it into SMTP or an .eml file. */
export interface OutgoingMail {
  /** What the mail is, e.g. "order-confirmation" or "contact-copy". */
  kind: string;
  locale: Locale;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  /** The account whose life the mail is about: deleting the account erases the mail. */
  accountId?: string;
  /** The order the mail is about: erased with the account the order belongs to. */
  orderId?: number;
}

/**
 * The next attempt of a parked mail: far enough ahead never to come due. A parked mail
 * (given up after its attempts, or erased before it was sent) waits for a person, not a timer.
 */
export const parked = "9999-12-31T00:00:00.000Z";

/** Header values must be one line: a line break in a header is how header injection works. */
function oneLine(value: string, field: string): string {
  if (/[\r\n\0]/.test(value)) throw new Error(`outbox: ${field} must not contain line breaks`);
  return value;
}

/**
 * Queues a mail. Pass the transaction that stores what the mail reports (trx), so the
 * two commit or roll back together; the sender delivers it afterwards.
 */
export async function enqueueMail(db: Kysely<Schema>, mail: OutgoingMail, at = new Date()): Promise<number> {
  const iso = at.toISOString();
  const row = await db
    .insertInto("outbox")
    .values({
      kind: mail.kind,
      locale: mail.locale,
      to_address: oneLine(mail.to, "to"),
      reply_to: mail.replyTo === undefined ? null : oneLine(mail.replyTo, "replyTo"),
      subject: oneLine(mail.subject, "subject"),
      text_body: mail.text,
      html_body: mail.html ?? null,
      account_id: mail.accountId ?? null,
      order_id: mail.orderId ?? null,
      created_at: iso,
      next_attempt_at: iso,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
