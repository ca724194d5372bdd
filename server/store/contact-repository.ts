import type { Kysely } from "kysely";
import type { Locale } from "../i18n/locales.ts";
import type { MailFileOf } from "../mail/mail-files.ts";
import { enqueueMail, type OutgoingMail, parked } from "../mail/outbox.ts";
import { erasedMailContent } from "../mail/outbox-erasure.ts";
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

/** The mails a contact message causes (mail/contact-mails.ts): the shopper's copy and customer service's. */
const contactMailKinds = ["contact-copy", "contact-support"];

/**
 * Erases, in the caller's transaction, the contact messages sent from these addresses (as
 * emailKey writes them), when the account they are of is deleted (ADR 0094): the rows go, and so does
 * the content of their mails, the copy to the shopper and the one to customer service (whose
 * reply-to is the shopper), as ADR 0092 erases an account's mails; one still queued is parked,
 * never sent. Answers the erased mails, whose .eml files go once the deletion committed.
 */
export async function eraseContactMessages(
  trx: Kysely<Schema>,
  addresses: readonly string[],
  at: Date,
): Promise<MailFileOf[]> {
  const keys = [...new Set(addresses)];
  if (keys.length === 0) return [];
  await trx
    .deleteFrom("contact_messages")
    .where((eb) => eb(eb.fn("lower", [eb.fn("trim", ["email"])]), "in", keys))
    .execute();
  const mails = trx
    .selectFrom("outbox")
    .select("id")
    .where("kind", "in", contactMailKinds)
    .where("erased_at", "is", null)
    .where((eb) =>
      eb.or([eb(eb.fn("lower", ["to_address"]), "in", keys), eb(eb.fn("lower", ["reply_to"]), "in", keys)]),
    );
  await trx
    .updateTable("outbox")
    .set({ next_attempt_at: parked, last_error: "erased with its account before it was sent" })
    .where("id", "in", mails)
    .where("sent_at", "is", null)
    .execute();
  const erased = await trx
    .updateTable("outbox")
    .set({ ...erasedMailContent(at), claimed_by: null, claimed_until: null })
    .where("id", "in", mails)
    .returning(["id", "kind", "created_at"])
    .execute();
  return erased.map((mail) => ({ ...mail, id: Number(mail.id) }));
}
