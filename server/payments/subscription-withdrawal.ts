import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import { localMoment } from "../domain/delivery-times.ts";
import {
  applySubscriptionEvent,
  type SubscriptionStatus,
  withdrawalDeadline,
  withdrawalRefundCents,
} from "../domain/subscription-lifecycle.ts";
import type { IsoDate } from "../domain/working-days.ts";
import type { I18n } from "../i18n/index.ts";
import type { Locale } from "../i18n/locales.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { subscriptionWithdrawnMail } from "../mail/subscription-renewal-mails.ts";
import type { Schema } from "../store/schema.ts";
import type { SubscriptionRepository } from "../store/subscription-repository.ts";
import { type PaymentProvider, PaymentProviderError } from "./provider.ts";

export type WithdrawResult =
  | { kind: "withdrawn"; refundCents: number; refundId: string | undefined }
  | { kind: "already-withdrawn" }
  | { kind: "refused"; status: SubscriptionStatus; reason: string; deadline: IsoDate | undefined }
  | { kind: "unavailable" }
  | { kind: "unknown" };

/**
 * A withdrawal received on `on` (online, by letter or by phone): refused past the 14 days;
 * otherwise the unused days of the first period are refunded through the provider (one
 * refund per subscription: its key is the subscription's), the mandate is revoked, and the
 * subscription ends with one mail. An upgrade paid in the first period is paid back the same way. The refund goes first: when the provider cannot be
 * reached nothing is changed, and asking again refunds once.
 */
export async function withdrawSubscription(
  deps: {
    db: Kysely<Schema>;
    provider: PaymentProvider;
    subscriptions: SubscriptionRepository;
    i18n: I18n;
    log: Pick<FastifyBaseLogger, "warn" | "error">;
    now: () => Date;
  },
  id: string,
  on: IsoDate,
): Promise<WithdrawResult> {
  const { db, provider, subscriptions, i18n } = deps;
  const subscription = await subscriptions.get(id);
  if (!subscription) return { kind: "unknown" };
  if (subscription.status === "withdrawn") return { kind: "already-withdrawn" };
  const startedOn =
    subscription.startedOn ?? subscription.paidFrom ?? localMoment(new Date(subscription.createdAt)).date;
  const decided = applySubscriptionEvent(subscription.status, { type: "withdrawn", on, startedOn });
  if (!decided.ok)
    return {
      kind: "refused",
      status: subscription.status,
      reason: decided.reason,
      deadline: subscription.startedOn ? withdrawalDeadline(subscription.startedOn) : undefined,
    };

  // The first period's payment: within 14 days nothing later has been paid.
  const paid = await db
    .selectFrom("subscription_payments")
    .select(["payment_id", "amount_cents"])
    .where("subscription_id", "=", id)
    .where("status", "=", "paid")
    .orderBy("attempt", "desc")
    .executeTakeFirst();
  const period = { start: subscription.paidFrom ?? startedOn, end: subscription.paidUntil ?? startedOn };
  // And each upgrade paid in it (ADR 0108): the unused days of the part it paid for.
  const upgrades = await db
    .selectFrom("subscription_plan_changes")
    .select(["id", "payment_id", "amount_cents", "starts_on", "period_end"])
    .where("subscription_id", "=", id)
    .where("status", "=", "paid")
    .where("payment_id", "is not", null)
    .orderBy("id")
    .execute();
  // One key per payment: asked again after a failure, each is paid back once.
  const refunds = [
    ...(paid
      ? [
          {
            paymentId: paid.payment_id,
            cents: withdrawalRefundCents(Number(paid.amount_cents), period, on),
            key: `withdrawal-${id}`,
          },
        ]
      : []),
    ...upgrades.map((upgrade) => ({
      paymentId: upgrade.payment_id as string,
      cents: withdrawalRefundCents(
        Number(upgrade.amount_cents),
        { start: upgrade.starts_on, end: upgrade.period_end },
        on,
      ),
      key: `withdrawal-${id}-upgrade-${upgrade.id}`,
    })),
  ];
  let refundCents = 0;
  let refundId: string | undefined;
  const t = i18n.t[subscription.locale as Locale];
  for (const refund of refunds) {
    if (refund.cents <= 0) continue;
    try {
      const made = await provider.refundPayment({
        paymentId: refund.paymentId,
        amountCents: refund.cents,
        description: t("subscriptionRenewal.refundDescription", { id }),
        idempotencyKey: refund.key,
      });
      refundId ??= made.id;
      refundCents += refund.cents;
    } catch (err) {
      // An earlier refund of the same withdrawal may have gone through: asked again, its key
      // makes the provider answer with that refund, not pay it a second time.
      deps.log.error(
        { err, subscription: id, payment: refund.paymentId, refundedBefore: refundCents },
        "withdrawal: a refund could not be made; the subscription is unchanged, and refunds already made are not made again when the shopper asks again",
      );
      if (err instanceof PaymentProviderError) return { kind: "unavailable" };
      throw err;
    }
  }
  const applied = await subscriptions.applyEvent(id, { type: "withdrawn", on, startedOn }, deps.now(), {
    afterChange: async (trx, changed) => {
      await enqueueMail(trx, subscriptionWithdrawnMail(t, changed, on, refundCents), deps.now());
    },
  });
  if (applied.kind === "refused")
    return {
      kind: "refused",
      status: applied.status,
      reason: applied.reason,
      deadline: withdrawalDeadline(startedOn),
    };
  if (applied.kind !== "changed") return { kind: "already-withdrawn" };
  if (subscription.customerId && subscription.mandateId) {
    await provider
      .revokeMandate({ customerId: subscription.customerId, mandateId: subscription.mandateId })
      .catch((err: unknown) =>
        deps.log.warn({ err, subscription: id }, "mandate not revoked; nothing is charged on it anyway"),
      );
  }
  return { kind: "withdrawn", refundCents, refundId };
}
