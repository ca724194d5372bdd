import type { FastifyBaseLogger } from "fastify";
import { linkFresh, receivedOn } from "../domain/contract-requests.ts";
import { subscriptionRuns } from "../domain/subscription-lifecycle.ts";
import type { IsoDate } from "../domain/working-days.ts";
import type { Locale } from "../i18n/locales.ts";
import { contractCancelledMail, extraordinaryNoticeMail } from "../mail/contract-request-mails.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { type PaymentProvider, PaymentProviderError } from "../payments/provider.ts";
import { withdrawSubscription } from "../payments/subscription-withdrawal.ts";
import type { ContractRequest } from "../store/contract-request-repository.ts";
import { subscriptionChargeRepository } from "../store/subscription-charge-repository.ts";
import type { ContractDeps } from "./contract-receipt.ts";

/** What using a link did (kept with the request as JSON, so a second use shows the same). */
export type ConfirmOutcome =
  /**
   * Notice holds: the subscription ends on `endsOn` (the paid period's end, or today when
   * nothing paid ran on). `refundCents`: periods charged after the notice arrived, paid back
   * (it then ended today).
   */
  | { kind: "cancelled"; endsOn: IsoDate; refundCents?: number }
  /** Notice had been given already (the account page, an earlier request). */
  | { kind: "already-cancelled"; endsOn: IsoDate | undefined }
  | { kind: "withdrawn"; refundCents: number }
  | { kind: "already-withdrawn" }
  /** The 14 days had passed when the withdrawal arrived. */
  | { kind: "late"; deadline: IsoDate | undefined }
  /** The subscription ended otherwise in the meantime: nothing left to end. */
  | { kind: "ended" };

export type LinkState =
  | { state: "valid"; request: ContractRequest }
  | { state: "used"; request: ContractRequest; outcome: ConfirmOutcome }
  | { state: "expired" }
  | { state: "unknown" };

export type ConfirmResult =
  | { kind: "done"; request: ContractRequest; outcome: ConfirmOutcome }
  | { kind: "expired" }
  | { kind: "unknown" }
  /** The provider could not refund now: nothing changed, the link still works. */
  | { kind: "unavailable" };

const outcomeOf = (request: ContractRequest): ConfirmOutcome => JSON.parse(request.outcome ?? "{}");

function stateOf(request: ContractRequest | undefined, at: Date): LinkState {
  if (!request?.subscriptionId) return { state: "unknown" };
  if (request.confirmedAt) return { state: "used", request, outcome: outcomeOf(request) };
  if (!linkFresh(request.receivedAt, at)) return { state: "expired" };
  return { state: "valid", request };
}

/** What a link leads to, without using it (its page has the button: mail scanners open links too). */
export async function contractLink(
  deps: ContractDeps,
  kind: "cancel" | "withdraw",
  token: string,
  at: Date,
): Promise<LinkState> {
  return stateOf(await deps.requests.byToken(token, kind), at);
}

/**
 * The periods charged after the notice arrived: a notice sent in a period's last days whose
 * link is used after the next period's charge was paid, by the mandate or, after it failed,
 * by hand from the mail's link. That payment should not have been asked for (the notice
 * counts from the button), so it is paid back.
 */
async function refundChargesAfter(
  deps: ContractDeps & { provider: PaymentProvider; log: Pick<FastifyBaseLogger, "error"> },
  request: ContractRequest,
): Promise<{ refundCents: number } | "unavailable"> {
  const subscriptionId = request.subscriptionId as string;
  const day = receivedOn(new Date(request.receivedAt));
  const subscription = await deps.subscriptions.get(subscriptionId);
  // Ended meanwhile (an earlier request, the account page, a withdrawal): nothing is refunded here.
  if (!subscription || !subscriptionRuns(subscription.status)) return { refundCents: 0 };
  const charges = await subscriptionChargeRepository(deps.db).ofSubscription(subscriptionId);
  const byHand = await deps.db
    .selectFrom("by_hand_payments")
    .select(["id", "payment_id", "amount_cents"])
    .where("subscription_id", "=", subscriptionId)
    .where("status", "=", "paid")
    .where("period_start", ">", day)
    .execute();
  // An upgrade from a day after the notice (ADR 0108) should not have been charged either.
  const upgrades = await deps.db
    .selectFrom("subscription_plan_changes")
    .select(["id", "payment_id", "amount_cents"])
    .where("subscription_id", "=", subscriptionId)
    .where("status", "=", "paid")
    .where("payment_id", "is not", null)
    .where("starts_on", ">", day)
    .execute();
  // One key per payment: however many requests or uses, a payment is paid back once.
  const after = [
    ...charges
      .filter((c) => c.status === "paid" && c.paymentId && c.periodStart > day)
      .map((c) => ({
        paymentId: c.paymentId as string,
        amountCents: c.amountCents,
        key: `notice-charge-${c.id}`,
      })),
    ...byHand.map((p) => ({
      paymentId: p.payment_id,
      amountCents: Number(p.amount_cents),
      key: `notice-by-hand-${p.id}`,
    })),
    ...upgrades.map((u) => ({
      paymentId: u.payment_id as string,
      amountCents: Number(u.amount_cents),
      key: `notice-upgrade-${u.id}`,
    })),
  ];
  const t = deps.i18n.t[subscription.locale as Locale];
  let refundCents = 0;
  for (const charge of after) {
    try {
      await deps.provider.refundPayment({
        paymentId: charge.paymentId,
        amountCents: charge.amountCents,
        description: t("contractForms.refundDescription", { id: subscriptionId }),
        idempotencyKey: charge.key,
      });
    } catch (err) {
      deps.log.error(
        { err, subscription: subscriptionId },
        "notice: a charge after it could not be refunded",
      );
      if (err instanceof PaymentProviderError) return "unavailable";
      throw err;
    }
    refundCents += charge.amountCents;
  }
  return { refundCents };
}

/**
 * A cancellation's link used at `at`: the address is proven, so the notice takes effect with
 * the lifecycle's notice event, under the subscription's lock and in one transaction with the
 * request's outcome and the mail "cancelled, with its end date" (one, with the change). The
 * date of receipt stays the button's: a period charged after it is paid back and the
 * subscription ends at once (the lifecycle's "cancelled"). Used again, it changes and mails
 * nothing.
 */
export async function confirmCancellation(
  deps: ContractDeps & {
    supportEmail: string;
    provider: PaymentProvider;
    log: Pick<FastifyBaseLogger, "warn" | "error">;
  },
  token: string,
  at: Date,
): Promise<ConfirmResult> {
  const before = await contractLink(deps, "cancel", token, at);
  if (before.state === "used") return { kind: "done", request: before.request, outcome: before.outcome };
  if (before.state !== "valid") return { kind: before.state };
  const refunded = await refundChargesAfter(deps, before.request);
  if (refunded === "unavailable") return { kind: "unavailable" };
  const done = await deps.db.transaction().execute(async (trx): Promise<ConfirmResult> => {
    const state = stateOf(await deps.requests.byToken(token, "cancel", trx), at);
    if (state.state === "used") return { kind: "done", request: state.request, outcome: state.outcome };
    if (state.state !== "valid") return { kind: state.state };
    const { request } = state;
    const subscription = await deps.subscriptions.lockedSubscription(trx, request.subscriptionId as string);
    if (!subscription) return { kind: "unknown" };
    const refundCents = refunded.refundCents;
    let endsOn: IsoDate = receivedOn(at);
    const result = await deps.subscriptions.transitionIn(
      trx,
      subscription,
      { type: refundCents > 0 ? "cancelled" : "notice_given" },
      at,
      async (inner, changed) => {
        endsOn = changed.endsOn ?? endsOn;
        const locale = changed.locale as Locale;
        await enqueueMail(
          inner,
          contractCancelledMail(deps.i18n.t[locale], locale, request, changed, endsOn, refundCents),
          at,
        );
        if (request.notice === "extraordinary") {
          await enqueueMail(
            inner,
            extraordinaryNoticeMail(deps.i18n.t.nl, deps.supportEmail, request, changed, endsOn, at),
            at,
          );
        }
      },
    );
    const outcome: ConfirmOutcome =
      result.kind === "changed"
        ? { kind: "cancelled", endsOn, ...(refundCents > 0 ? { refundCents } : {}) }
        : result.kind === "unchanged"
          ? { kind: "already-cancelled", endsOn: subscription.endsOn }
          : { kind: "ended" };
    await deps.requests.markConfirmed(trx, request.id, at, JSON.stringify(outcome));
    return { kind: "done", request, outcome };
  });
  // Ended at once: nothing may be charged on the mandate any more (the renewal job revokes it
  // only for subscriptions that run to their period's end).
  const subscription = await deps.subscriptions.get(before.request.subscriptionId as string);
  if (
    done.kind === "done" &&
    subscription?.status === "cancelled" &&
    subscription.customerId &&
    subscription.mandateId
  ) {
    await deps.provider
      .revokeMandate({ customerId: subscription.customerId, mandateId: subscription.mandateId })
      .catch((err: unknown) =>
        deps.log.warn({ err }, "mandate not revoked; nothing is charged on it anyway"),
      );
  }
  return done;
}

/**
 * A withdrawal's link used: the withdrawal the customer service command makes
 * (subscription-withdrawal.ts), dated the day the button was pressed, so a link used after
 * the 14 days still withdraws what arrived within them. The refund's key is the
 * subscription's and the lifecycle changes once, so a link used twice, even at once,
 * refunds and mails once.
 */
export async function confirmWithdrawal(
  deps: ContractDeps & {
    provider: PaymentProvider;
    log: Pick<FastifyBaseLogger, "warn" | "error">;
    now: () => Date;
  },
  token: string,
  at: Date,
): Promise<ConfirmResult> {
  const state = await contractLink(deps, "withdraw", token, at);
  if (state.state === "used") return { kind: "done", request: state.request, outcome: state.outcome };
  if (state.state !== "valid") return { kind: state.state };
  const { request } = state;
  const withdrawn = await withdrawSubscription(
    deps,
    request.subscriptionId as string,
    receivedOn(new Date(request.receivedAt)),
  );
  if (withdrawn.kind === "unavailable") return { kind: "unavailable" };
  if (withdrawn.kind === "unknown") return { kind: "unknown" };
  const outcome: ConfirmOutcome =
    withdrawn.kind === "withdrawn"
      ? { kind: "withdrawn", refundCents: withdrawn.refundCents }
      : withdrawn.kind === "already-withdrawn"
        ? { kind: "already-withdrawn" }
        : withdrawn.deadline && receivedOn(new Date(request.receivedAt)) > withdrawn.deadline
          ? { kind: "late", deadline: withdrawn.deadline }
          : { kind: "ended" };
  const marked = await deps.db
    .transaction()
    .execute((trx) => deps.requests.markConfirmed(trx, request.id, at, JSON.stringify(outcome)));
  if (!marked) {
    // Used at the same moment elsewhere: that use's outcome is the one kept.
    const again = await contractLink(deps, "withdraw", token, at);
    if (again.state === "used") return { kind: "done", request: again.request, outcome: again.outcome };
  }
  return { kind: "done", request, outcome };
}
