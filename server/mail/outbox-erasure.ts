import type { Kysely } from "kysely";
import type { Schema } from "../store/schema.ts";
import type { MailFileOf } from "./mail-files.ts";
import { parked } from "./outbox.ts";

/**
 * Erasing a mail: its subject (it may name an order), addresses and text go; the row stays
 * as the record that a mail of its kind, in its language, was queued and sent (or never
 * was), with its times. The clean-up job erases sent mails MAIL_BODY_DAYS after sending;
 * deleting an account erases its mails at once.
 */
export function erasedMailContent(at: Date) {
  return {
    to_address: "",
    reply_to: null,
    subject: "",
    text_body: "",
    html_body: null,
    erased_at: at.toISOString(),
  } as const;
}

/** An account's mails, by what ties them to it. */
export interface MailsOfAccount {
  accountId: string;
  /** The account's orders: their mails (confirmation, payment, shipping) go with it. */
  orderIds: readonly number[];
  /**
   * Its address as the shop keys it (emailKey): mails sent before there was an account (the
   * sign-up link) or to it without an account's id (a subscription's link, older rows).
   */
  emailKey: string;
}

/**
 * Erases every mail of the account not yet erased, sent or not, in the transaction that
 * deletes the account, and answers them, whose files go after it commits. A mail still
 * queued is parked with the reason, never sent: it would carry the account's name and links
 * to an account that no longer exists. A sender holding its claim finds it gone when it
 * renews the claim; one already delivering removes its file itself (sender.ts).
 */
export async function eraseAccountMails(
  trx: Kysely<Schema>,
  of: MailsOfAccount,
  at: Date,
): Promise<MailFileOf[]> {
  const mine = trx
    .selectFrom("outbox")
    .select("id")
    .where("erased_at", "is", null)
    .where((eb) =>
      eb.or([
        eb("account_id", "=", of.accountId),
        ...(of.orderIds.length > 0 ? [eb("order_id", "in", [...of.orderIds])] : []),
        eb(eb.fn("lower", ["to_address"]), "=", of.emailKey),
      ]),
    );
  await trx
    .updateTable("outbox")
    .set({ next_attempt_at: parked, last_error: "erased with its account before it was sent" })
    .where("id", "in", mine)
    .where("sent_at", "is", null)
    .execute();
  const erased = await trx
    .updateTable("outbox")
    .set({ ...erasedMailContent(at), claimed_by: null, claimed_until: null })
    .where("id", "in", mine)
    .returning(["id", "kind", "created_at"])
    .execute();
  return erased.map((mail) => ({ ...mail, id: Number(mail.id) }));
}
