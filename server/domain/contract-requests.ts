import { localMoment } from "./delivery-times.ts";
import { shopTimeZone } from "./shop-time-zone.ts";
import {
  applySubscriptionEvent,
  type SubscriptionStatus,
  withdrawalDeadline,
} from "./subscription-lifecycle.ts";
import type { IsoDate } from "./working-days.ts";

/**
 * Cancelling and withdrawing from the photo subscription with the public forms (ADR 0103),
 * the rules without the store: what the mail sent at the button's moment says, and what the
 * mailed link may still do. The page after the button is the same for every address; only
 * the mail, which goes to the address typed, tells what was found.
 */

export const contractRequestKinds = ["cancel", "withdraw"] as const;
export type ContractRequestKind = (typeof contractRequestKinds)[number];

export const noticeKinds = ["ordinary", "extraordinary"] as const;
export type NoticeKind = (typeof noticeKinds)[number];

/** The link in the mail works this long: a week to read a mail, not a month to find it in an old one. */
export const contractLinkDays = 7;

/**
 * Requests one address may send per kind in an hour: a second try after a typo, and not a
 * way to fill someone's mailbox (every request mails the address typed).
 */
export const contractRequestsPerAddressPerHour = 5;

/** A request as the form sent it, its spaces trimmed. */
export interface ContractRequestInput {
  kind: ContractRequestKind;
  locale: "nl" | "de";
  name: string;
  email: string;
  /** The subscription number typed; undefined: "the subscription of this e-mail address". */
  contractRef: string | undefined;
  /** Cancellations only. */
  notice: NoticeKind | undefined;
  reason: string | undefined;
  /** For an extraordinary notice: the day it should end the contract. */
  askedEndOn: IsoDate | undefined;
}

/** What the subscription found for the address looks like to these rules. */
export interface SubscriptionStanding {
  status: SubscriptionStatus;
  paidFrom: IsoDate | undefined;
  paidUntil: IsoDate | undefined;
  startedOn: IsoDate | undefined;
  endsOn: IsoDate | undefined;
  createdAt: string;
}

/** What the mail sent at the button's moment says. */
export type ReceiptOutcome =
  /**
   * The address has a subscription this request can end: the mail carries the link that
   * proves the address. `endsOn`: the paid period's last day; undefined when nothing paid is
   * still running, so confirming ends it that day.
   */
  | { kind: "link"; endsOn: IsoDate | undefined; deadline?: IsoDate }
  /** Notice was given already: it ends on `endsOn`, nothing to confirm. */
  | { kind: "already"; endsOn: IsoDate }
  /** A withdrawal after the 14 days: refused, with the last day it was possible. */
  | { kind: "late"; deadline: IsoDate }
  /** No running subscription for this address (and number). */
  | { kind: "none" };

/** The day the withdrawal window counts from, as the withdrawal itself counts it. */
export function firstDay(subscription: SubscriptionStanding): IsoDate {
  return (
    subscription.startedOn ?? subscription.paidFrom ?? localMoment(new Date(subscription.createdAt)).date
  );
}

/** A notice received for `subscription`: what ends when, or why nothing is to be confirmed. */
export function cancelReceipt(subscription: SubscriptionStanding | undefined): ReceiptOutcome {
  if (!subscription) return { kind: "none" };
  switch (subscription.status) {
    case "active":
      return { kind: "link", endsOn: subscription.paidUntil };
    // Behind with paying, or never paid: nothing paid runs on, so notice ends it at once.
    case "past_due":
    case "suspended":
    case "awaiting_payment":
      return { kind: "link", endsOn: undefined };
    case "cancelling":
      return { kind: "already", endsOn: subscription.endsOn ?? subscription.paidUntil ?? "" };
    case "cancelled":
    case "expired":
    case "withdrawn":
      return { kind: "none" };
  }
}

/**
 * A withdrawal received on `receivedOn` for `subscription`: within the 14 days the link can
 * withdraw (the day of receipt counts, not the day the link is used); after them it is refused.
 */
export function withdrawReceipt(
  subscription: SubscriptionStanding | undefined,
  receivedOn: IsoDate,
): ReceiptOutcome {
  if (!subscription) return { kind: "none" };
  const startedOn = firstDay(subscription);
  const decided = applySubscriptionEvent(subscription.status, {
    type: "withdrawn",
    on: receivedOn,
    startedOn,
  });
  if (decided.ok && decided.changed)
    return { kind: "link", endsOn: receivedOn, deadline: withdrawalDeadline(startedOn) };
  const running = ["active", "past_due", "suspended", "cancelling"].includes(subscription.status);
  if (running) return { kind: "late", deadline: withdrawalDeadline(startedOn) };
  return { kind: "none" };
}

/** The day of receipt on the shop's calendar. */
export function receivedOn(receivedAt: Date): IsoDate {
  return localMoment(receivedAt, shopTimeZone).date;
}

/** Whether a link mailed at `receivedAt` still works at `at`. */
export function linkFresh(receivedAt: string, at: Date): boolean {
  return Date.parse(receivedAt) > at.getTime() - contractLinkDays * 86_400_000;
}
