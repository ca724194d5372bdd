import type { SubscriberAllowance } from "./subscriber-benefits.ts";
import type { SubscriptionStatus } from "./subscription-lifecycle.ts";
import type { Plan } from "./subscription-plans.ts";
import type { IsoDate } from "./working-days.ts";

/** What of a subscription decides its allowance: its status and its paid period. */
export interface AllowanceSubscription {
  status: SubscriptionStatus;
  paidFrom: IsoDate | undefined;
  paidUntil: IsoDate | undefined;
}

/**
 * The free prints and discount belong to a paid period that includes today: an active
 * subscription, or a cancelling one until its last paid day. A past_due one gives none
 * (its current period is not paid; a charge that succeeds starts a new period, and with it
 * the prints), nor does a suspended one. `printsUsed` counts the free prints of this
 * period's orders that were not left to expire unpaid.
 */
export function subscriberAllowance(
  subscription: AllowanceSubscription | undefined,
  plan: Pick<Plan, "printsPerMonth" | "photoBookDiscount"> | undefined,
  printsUsed: number,
  today: IsoDate,
): SubscriberAllowance | undefined {
  if (!subscription || !plan) return undefined;
  if (subscription.status !== "active" && subscription.status !== "cancelling") return undefined;
  const { paidFrom, paidUntil } = subscription;
  if (!paidFrom || !paidUntil || today < paidFrom || today > paidUntil) return undefined;
  return {
    printsPerMonth: plan.printsPerMonth,
    freePrintsLeft: Math.max(0, plan.printsPerMonth - printsUsed),
    photoBookDiscount: plan.photoBookDiscount,
  };
}
