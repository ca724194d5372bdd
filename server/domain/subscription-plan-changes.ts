import { periodCents } from "./subscription-lifecycle.ts";
import type { IsoDate } from "./working-days.ts";

/**
 * Changing a running subscription's plan (ADR 0108), pure. A plan with a higher monthly
 * price is an upgrade: it starts today, and the rest of the paid period is charged at once,
 * pro rata. One with a lower price is a downgrade: the current plan runs to the end of the
 * paid period, the next period is charged at the new plan's price. The introductory offer
 * belongs to the subscription's first months, whichever plan it is on then (periodCents).
 */

export interface PlanPrices {
  monthlyCents: number;
  offer?: { monthlyCents: number; months: number } | undefined;
}

export type PlanChangeKind = "upgrade" | "downgrade" | "none";

/** Up or down by the plans' own monthly prices, not by what an offer makes this month cost. */
export function planChangeKind(current: PlanPrices, target: PlanPrices): PlanChangeKind {
  if (target.monthlyCents > current.monthlyCents) return "upgrade";
  if (target.monthlyCents < current.monthlyCents) return "downgrade";
  return "none";
}

/** Days from `from` to `to`, both counted. */
function daysIncluding(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * What an upgrade on `today` costs now: the difference between the two plans' prices for the
 * period (`periodNumber`, 1 is the first), for the days from today to the period's end (today
 * counts: the new plan is there from today), rounded down to a cent. Never below zero: an
 * offer can make the new plan cost no more this month.
 */
export function upgradeCents(
  current: PlanPrices,
  target: PlanPrices,
  periodNumber: number,
  period: { start: IsoDate; end: IsoDate },
  today: IsoDate,
): number {
  const difference = periodCents(target, periodNumber) - periodCents(current, periodNumber);
  if (difference <= 0) return 0;
  const all = daysIncluding(period.start, period.end);
  const left = Math.min(all, Math.max(0, daysIncluding(today, period.end)));
  return Math.floor((difference * left) / all);
}
