/**
 * The photo subscription's plans. Sample data like every price in the shop (the spec
 * gives none); the words for each plan are in the locale files (subscription.plans.<id>).
 * Money is integer cents.
 */
export interface Plan {
  id: string;
  monthlyCents: number;
  /** Photo storage in GB */
  storageGb: number;
  /** Free prints (10x15) per month */
  printsPerMonth: number;
  /** Discount on photo books, in percent */
  photoBookDiscount: number;
  /** An introductory price for the first months, offered until the end of the current month. */
  offer?: { monthlyCents: number; months: number };
}

export const plans: readonly Plan[] = [
  { id: "basis", monthlyCents: 299, storageGb: 50, printsPerMonth: 0, photoBookDiscount: 0 },
  {
    id: "plus",
    monthlyCents: 599,
    storageGb: 250,
    printsPerMonth: 20,
    photoBookDiscount: 10,
    offer: { monthlyCents: 299, months: 3 },
  },
  {
    id: "premium",
    monthlyCents: 999,
    storageGb: 1000,
    printsPerMonth: 50,
    photoBookDiscount: 20,
    offer: { monthlyCents: 499, months: 3 },
  },
];

/** The plan most shoppers pick: marked on the page and chosen in the form by default. */
export const recommendedPlanId = "plus";

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
 * time (Europe/Amsterdam), whatever the server's own zone. Shown as "Nog 5 dagen geldig".
 */
export function offerEndsAt(now: Date, timeZone = "Europe/Amsterdam"): Date {
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
