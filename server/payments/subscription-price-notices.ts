import { periodCents } from "../domain/subscription-lifecycle.ts";
import { addDays, type IsoDate } from "../domain/working-days.ts";
import type { Locale } from "../i18n/locales.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { subscriptionPriceNoticeMail } from "../mail/subscription-renewal-mails.ts";
import { subscriptionChargeRepository } from "../store/subscription-charge-repository.ts";
import type { SubscriptionChargesDeps } from "./subscription-charges.ts";

/**
 * How many days before the first period at the plan's own price its mail goes out (ADR
 * 0107): the SEPA rulebook's default pre-notification of a changed direct debit, and time
 * enough to give notice before the new price is charged.
 */
export const priceNoticeDays = 14;

/**
 * Mails each active subscription whose introductory offer ends within `priceNoticeDays` of
 * `asOf`: from which day it costs what, and until when notice stops that. Once per
 * subscription and period: the notice's row and its mail are written in one transaction,
 * and the row's key refuses a second. Answers how many were mailed.
 */
export async function announcePriceChanges(
  deps: Pick<
    SubscriptionChargesDeps,
    "db" | "subscriptions" | "i18n" | "log" | "now" | "origin" | "mailQueued"
  >,
  asOf: IsoDate,
): Promise<number> {
  const { db, subscriptions, i18n } = deps;
  const charges = subscriptionChargeRepository(db);
  // Not yet due, and its next period starts within the notice's days.
  const candidates = await db
    .selectFrom("subscriptions")
    .select("id")
    .where("status", "=", "active")
    .where("mandate_id", "is not", null)
    .where("offer_months", "is not", null)
    .where("paid_until", ">=", asOf)
    .where("paid_until", "<", addDays(asOf, priceNoticeDays))
    .orderBy("paid_until")
    .execute();
  let mailed = 0;
  for (const { id } of candidates) {
    const subscription = await subscriptions.get(id);
    if (!subscription?.paidUntil || !subscription.offer) continue;
    const number = (await charges.paidPeriods(id)) + 2;
    if (number !== subscription.offer.months + 1) continue;
    const amountCents = periodCents(subscription, number);
    if (amountCents === subscription.offer.monthlyCents) continue;
    const periodStart = addDays(subscription.paidUntil, 1);
    // A downgrade waits for that period: its own mail gave the price from then (ADR 0108).
    const downgrade = await db
      .selectFrom("subscription_plan_changes")
      .select("id")
      .where("subscription_id", "=", id)
      .where("status", "=", "scheduled")
      .where("starts_on", "<=", periodStart)
      .executeTakeFirst();
    if (downgrade) continue;
    const locale = subscription.locale as Locale;
    const at = deps.now();
    const cancelLink = `${deps.origin}${i18n.routes.pathFor("contractCancel", locale)}`;
    try {
      const sent = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto("subscription_price_notices")
          .values({
            subscription_id: id,
            period_start: periodStart,
            amount_cents: amountCents,
            created_at: at.toISOString(),
          })
          .onConflict((oc) => oc.columns(["subscription_id", "period_start"]).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
        const mail = subscriptionPriceNoticeMail(
          i18n.t[locale],
          subscription,
          { periodStart, amountCents, lastPaidDay: subscription.paidUntil as IsoDate },
          cancelLink,
        );
        await enqueueMail(trx, mail, at);
        return true;
      });
      if (sent) mailed++;
    } catch (err) {
      deps.log.warn({ err, subscription: id }, "price notice not queued; the next run tries again");
    }
  }
  if (mailed > 0) deps.mailQueued?.();
  return mailed;
}
