import type { FastifyBaseLogger } from "fastify";
import { linkFresh, receivedOn } from "../domain/contract-requests.ts";
import type { IsoDate } from "../domain/working-days.ts";
import type { Locale } from "../i18n/locales.ts";
import { contractCancelledMail, extraordinaryNoticeMail } from "../mail/contract-request-mails.ts";
import { enqueueMail } from "../mail/outbox.ts";
import type { PaymentProvider } from "../payments/provider.ts";
import { withdrawSubscription } from "../payments/subscription-withdrawal.ts";
import type { ContractRequest } from "../store/contract-request-repository.ts";
import type { ContractDeps } from "./contract-receipt.ts";

/** What using a link did (kept with the request as JSON, so a second use shows the same). */
export type ConfirmOutcome =
  /** Notice holds: the subscription ends on `endsOn` (the paid period's end, or today when nothing paid ran on). */
  | { kind: "cancelled"; endsOn: IsoDate }
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
 * A cancellation's link used at `at`: the address is proven, so the notice takes effect with
 * the lifecycle's notice event, under the subscription's lock and in one transaction with the
 * request's outcome and the mail "cancelled, with its end date" (one, with the change). The
 * date of receipt stays the button's. Used again, it changes and mails nothing.
 */
export async function confirmCancellation(
  deps: ContractDeps & { supportEmail: string },
  token: string,
  at: Date,
): Promise<ConfirmResult> {
  return deps.db.transaction().execute(async (trx) => {
    const state = stateOf(await deps.requests.byToken(token, "cancel", trx), at);
    if (state.state === "used") return { kind: "done", request: state.request, outcome: state.outcome };
    if (state.state !== "valid") return { kind: state.state };
    const { request } = state;
    const subscription = await deps.subscriptions.lockedSubscription(trx, request.subscriptionId as string);
    if (!subscription) return { kind: "unknown" };
    let endsOn: IsoDate = receivedOn(at);
    const result = await deps.subscriptions.transitionIn(
      trx,
      subscription,
      { type: "notice_given" },
      at,
      async (inner, changed) => {
        endsOn = changed.endsOn ?? endsOn;
        const locale = changed.locale as Locale;
        await enqueueMail(
          inner,
          contractCancelledMail(deps.i18n.t[locale], locale, request, changed, endsOn),
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
        ? { kind: "cancelled", endsOn }
        : result.kind === "unchanged"
          ? { kind: "already-cancelled", endsOn: subscription.endsOn }
          : { kind: "ended" };
    await deps.requests.markConfirmed(trx, request.id, at, JSON.stringify(outcome));
    return { kind: "done", request, outcome };
  });
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
