import type { Kysely } from "kysely";
import type { Locale } from "../i18n/locales.ts";
import { enqueueMail, type OutgoingMail } from "../mail/outbox.ts";
import type { Schema } from "./schema.ts";

export interface ContactMessage {
  locale: Locale;
  name: string;
  email: string;
  orderNumber?: string;
  subject: string;
  question: string;
}

export interface StoredContactMessage extends ContactMessage {
  id: number;
  receivedAt: Date;
}

export interface ContactRepository {
  /**
   * Stores a message and queues the mails about it in one transaction: either the
   * message and all its mails are kept, or nothing is (and the caller says so).
   */
  store(
    message: ContactMessage,
    mails: (stored: StoredContactMessage) => OutgoingMail[],
    receivedAt?: Date,
  ): Promise<StoredContactMessage>;
}

export function contactRepository(db: Kysely<Schema>): ContactRepository {
  return {
    store(message, mails, receivedAt = new Date()) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto("contact_messages")
          .values({
            locale: message.locale,
            name: message.name,
            email: message.email,
            order_number: message.orderNumber || null,
            subject: message.subject,
            question: message.question,
            received_at: receivedAt.toISOString(),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        const stored = { ...message, id: Number(row.id), receivedAt };
        for (const mail of mails(stored)) await enqueueMail(trx, mail, receivedAt);
        return stored;
      });
    },
  };
}
