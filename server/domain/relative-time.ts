import { type PluralTexts, pluralText } from "./plural.ts";

/**
 * "5 minuten geleden" and "Nog 3 dagen geldig": one function for the server, which
 * renders the text, and the browser, which keeps it current. Texts come from the
 * locale files (relativeTime group).
 */
export type RelativeUnit = "minutes" | "hours" | "days" | "months" | "years";
export type RelativeKind = "ago" | "remaining";

export interface RelativeTimeTexts {
  justNow: string;
  expired: string;
  ago: Record<RelativeUnit, PluralTexts>;
  remaining: Record<RelativeUnit, PluralTexts>;
}

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** Whole calendar months from a to b (a <= b), counting a month only once its day is reached. */
function wholeMonths(a: Date, b: Date): number {
  let months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  const aRest = a.getUTCDate() * day + (a.getTime() % day);
  const bRest = b.getUTCDate() * day + (b.getTime() % day);
  if (bRest < aRest) months -= 1;
  return Math.max(0, months);
}

/** The largest unit that fits, counted in whole units. */
export function largestUnit(from: Date, to: Date): { unit: RelativeUnit; count: number } {
  const ms = to.getTime() - from.getTime();
  if (ms < hour) return { unit: "minutes", count: Math.floor(ms / minute) };
  if (ms < day) return { unit: "hours", count: Math.floor(ms / hour) };
  const months = wholeMonths(from, to);
  if (months < 1) return { unit: "days", count: Math.floor(ms / day) };
  if (months < 12) return { unit: "months", count: months };
  return { unit: "years", count: Math.floor(months / 12) };
}

export function relativeTimeText(
  date: Date,
  now: Date,
  kind: RelativeKind,
  texts: RelativeTimeTexts,
  lang: string,
): string {
  if (kind === "ago") {
    if (date.getTime() > now.getTime() - minute) return texts.justNow;
    const { unit, count } = largestUnit(date, now);
    return pluralText(texts.ago[unit], count, lang);
  }
  if (date.getTime() <= now.getTime()) return texts.expired;
  const { unit, count } = largestUnit(now, date);
  // Less than a minute left still reads as one minute, never as "0 minutes".
  return pluralText(texts.remaining[unit], Math.max(1, count), lang);
}

/** When the text can next change, so the browser re-renders no more often than needed. */
export function nextChangeInMs(date: Date, now: Date): number {
  const ms = Math.abs(now.getTime() - date.getTime());
  if (ms < hour) return minute - (ms % minute) + 50;
  if (ms < day) return hour - (ms % hour) + 50;
  return Math.min(hour, day - (ms % day) + 50);
}
