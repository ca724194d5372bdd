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
}

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
      created_at: iso,
      next_attempt_at: iso,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
