import { localMoment } from "../domain/delivery-times.ts";
import { subscriberAllowance } from "../domain/subscriber-allowance.ts";
import type { SubscriberAllowance } from "../domain/subscriber-benefits.ts";
import { planById } from "../domain/subscription-plans.ts";
import { accountShown, clockShown, type Shown } from "../http/caching/page-shows.ts";
import type { Services } from "../http/services.ts";
import type { OrderSubscriber } from "../store/order-repository.ts";
import type { Session } from "../store/session-repository.ts";
import type { Subscription } from "../store/subscription-repository.ts";

/**
 * The signed-in shopper's photo subscription as the cart sees it (ADR 0104): what it gives
 * now, and the paid period whose free prints an order would use. None without a
 * subscription that gives something today (active, or cancelling until its last paid day).
 */
export interface CartSubscriber extends OrderSubscriber {
  allowance: SubscriberAllowance;
  /** The allowance with `used` prints taken by the period's orders, as placing an order counts them again. */
  allowanceAfter(used: number): SubscriberAllowance;
}

export async function cartSubscriber(
  services: Pick<Services, "subscriptions" | "orders" | "now">,
  accountId: string,
): Promise<CartSubscriber | undefined> {
  return subscriberOf(services, await services.subscriptions.forAccount(accountId));
}

/** The same, for the account's subscription already read (the account's subscription page). */
export async function subscriberOf(
  services: Pick<Services, "orders" | "now">,
  subscription: Subscription | undefined,
): Promise<CartSubscriber | undefined> {
  const plan = subscription && planById(subscription.planId);
  if (!subscription?.paidFrom || !plan) return undefined;
  const today = localMoment(services.now()).date;
  // Defined for every count once it is for none: the same subscription on the same day.
  const allowanceAfter = (used: number) =>
    subscriberAllowance(subscription, plan, used, today) as SubscriberAllowance;
  if (!subscriberAllowance(subscription, plan, 0, today)) return undefined;
  const period = { subscriptionId: subscription.id, period: subscription.paidFrom };
  const used = await services.orders.freePrintsUsed(period);
  return {
    ...period,
    allowance: allowanceAfter(used),
    allowanceAfter,
  };
}

/**
 * What a signed-in shopper's cart page shows beyond the cart, for the page's declaration
 * (page-shows.ts): the subscription and the orders that used its prints, both covered by
 * the account's revision (migration 0016), and the shop's day, on which a paid period ends.
 * Read before the subscription is.
 */
export function subscriberShown(services: Pick<Services, "accounts" | "now">, session: Session): Shown[] {
  return [
    accountShown(services.accounts, session, services.now),
    clockShown("day", () => localMoment(services.now()).date),
  ];
}
