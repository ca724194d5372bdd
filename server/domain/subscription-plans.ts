/**
 * The photo subscription's plans. Their prices are the editors' (content/prices.json);
 * the words for each plan are in the locale files (subscription.plans.<id>). Money is
 * integer cents.
 */

import type { Plan } from "./price-list.ts";
import { priceList } from "./prices.ts";
import { shopTimeZone } from "./shop-time-zone.ts";

export type { Plan };

export const plans: readonly Plan[] = priceList.subscriptionPlans;

/** The plan most shoppers pick (the price list marks exactly one): shown first-choice on the page and chosen in the form. */
export const recommendedPlanId = plans.find((plan) => plan.recommended)?.id ?? "";

export function planById(id: unknown): Plan | undefined {
  return plans.find((p) => p.id === id);
}

/** Minutes east of UTC in a time zone at an instant, e.g. 60 for Amsterdam in winter. */
function offsetMinutes(instant: number, timeZone: string): number {
  const name =
    new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
      .formatToParts(instant)
      .find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === "-" ? -minutes : minutes;
}

/**
 * When this month's introductory offers end: midnight at the start of next month, shop
 * time, whatever the server's own zone. Shown as "Nog 5 dagen geldig".
 */
export function offerEndsAt(now: Date, timeZone = shopTimeZone): Date {
  // Intl's formatToParts is slow; the answer is the same from one moment until the month ends.
  const known = answers.get(timeZone);
  const t = now.getTime();
  if (known && t >= known.from && t < known.end.getTime()) return new Date(known.end);
  const end = computeOfferEnd(now, timeZone);
  answers.set(timeZone, { from: t, end });
  return end;
}

const answers = new Map<string, { from: number; end: Date }>();

function computeOfferEnd(now: Date, timeZone: string): Date {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "numeric",
  }).formatToParts(now);
  const year = Number(parts.find((p) => p.type === "year")?.value);
  const month = Number(parts.find((p) => p.type === "month")?.value);
  const localMidnight = Date.UTC(year, month, 1); // month is 1-based here, so this is next month
  // The offset at local midnight may differ from now's (a DST change this month): settle it twice.
  let utc = localMidnight - offsetMinutes(localMidnight, timeZone) * 60_000;
  utc = localMidnight - offsetMinutes(utc, timeZone) * 60_000;
  return new Date(utc);
}
