import { type SubscriptionStatus, storageReadOnly, subscriptionRuns } from "./subscription-lifecycle.ts";

/**
 * What a subscription does to its subscriber's photo storage (their uploads, on every
 * device): suspended, nothing new is stored until the open month is paid (the photos stay
 * and can be seen and removed); running, the plan's room (storageGb) is theirs. Without a
 * subscription, or once it ended, only the shop's own limits apply.
 */
export type SubscriberRoom = "fits" | "paused" | "planFull";

export const bytesPerGb = 1024 ** 3;

/**
 * A subscriber's photos stay after the subscription ended for this many days (the
 * subscription page promises it: time to download them), then the shop's rule for photos in
 * no project applies. While it runs or is suspended they are never deleted by themselves.
 */
export const photosKeptAfterEndDays = 30;

export function subscriberRoom(
  subscription: { status: SubscriptionStatus; storageGb: number } | undefined,
  storedBytes: number,
  bytes: number,
): SubscriberRoom {
  if (!subscription) return "fits";
  if (storageReadOnly(subscription.status)) return "paused";
  const room = planRoomBytes(subscription);
  return room !== undefined && storedBytes + bytes > room ? "planFull" : "fits";
}

/** The most a subscriber's photos may take now: the plan's room while it runs; no cap otherwise. */
export function planRoomBytes(
  subscription: { status: SubscriptionStatus; storageGb: number } | undefined,
): number | undefined {
  return subscription && subscriptionRuns(subscription.status)
    ? subscription.storageGb * bytesPerGb
    : undefined;
}
