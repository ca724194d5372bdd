import { shopTimeZone } from "./shop-time-zone.ts";
import {
  addDays,
  addWorkingDays,
  type Country,
  type IsoDate,
  isWorkingDay,
  workingDayFrom,
} from "./working-days.ts";

/**
 * When an order placed now is sent and delivered. Pure: the moment "now" is always
 * passed in, so the same call gives the same answer in a test, on the server and for
 * the cart.
 *
 * The rules, as the delivery-times page explains them:
 * - An order placed on a working day before the cut-off time goes into production that
 *   day; later, or on a weekend or public holiday, on the next working day.
 * - Production takes the product's working days, counting the first production day:
 *   one working day means it is sent at the end of that same day.
 * - It is sent on the last production day and delivered `transit` working days later.
 * - Working days are those of the shopper's country (the Dutch shop's NL holidays for
 *   nl, the German ones for de), see working-days.ts.
 */

export interface DayRange {
  min: number;
  max: number;
}

export interface DayWindow {
  from: IsoDate;
  to: IsoDate;
}

export interface CutOff {
  hour: number;
  minute: number;
}

/**
 * Working days from dispatch to the door. PostNL delivers within the Netherlands the next
 * working day; a parcel to Germany is handed over to DHL and takes one to two.
 */
export const transitDays: Record<Country, DayRange> = {
  NL: { min: 1, max: 1 },
  DE: { min: 1, max: 2 },
};

export function parseCutOff(text: string): CutOff {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  if (!match) throw new RangeError(`cut-off must be a time such as 15:00, not ${JSON.stringify(text)}`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

export function formatCutOff(cutOff: CutOff): string {
  return `${String(cutOff.hour).padStart(2, "0")}:${String(cutOff.minute).padStart(2, "0")}`;
}

/** A moment as the shop's wall clock shows it: the calendar day and the minutes since midnight. */
export interface LocalMoment {
  date: IsoDate;
  minutes: number;
  seconds: number;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();

function wallClock(instant: Date, timeZone: string): { date: IsoDate; minutes: number; seconds: number } {
  if (Number.isNaN(instant.getTime())) throw new RangeError("the current time is not a valid date");
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    partFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
    seconds: Number(parts.second),
  };
}

export function localMoment(now: Date, timeZone = shopTimeZone): LocalMoment {
  return wallClock(now, timeZone);
}

/** The instant at which the shop's clock shows `minutes` past midnight on `date`. */
export function instantAt(date: IsoDate, minutes: number, timeZone = shopTimeZone): Date {
  const wall = Date.parse(`${date}T00:00:00Z`) + minutes * 60_000;
  // The zone's offset at a first guess, then once more at the result: right across DST changes.
  let guess = wall;
  for (let i = 0; i < 2; i++) {
    const shown = wallClock(new Date(guess), timeZone);
    const shownMs = Date.parse(`${shown.date}T00:00:00Z`) + shown.minutes * 60_000 + shown.seconds * 1000;
    guess -= shownMs - wall;
  }
  return new Date(guess);
}

const minutesOf = (cutOff: CutOff) => cutOff.hour * 60 + cutOff.minute;

/**
 * The first production day of an order placed at `now`. "Ordered before 15:00" means
 * 14:59:59 still counts for today and 15:00:00 does not.
 */
export function productionStart(now: LocalMoment, cutOff: CutOff, country: Country): IsoDate {
  if (now.minutes < minutesOf(cutOff) && isWorkingDay(now.date, country)) return now.date;
  return workingDayFrom(addDays(now.date, 1), country);
}

export function dispatchWindow(start: IsoDate, production: DayRange, country: Country): DayWindow {
  return {
    from: addWorkingDays(start, production.min - 1, country),
    to: addWorkingDays(start, production.max - 1, country),
  };
}

export function deliveryWindow(dispatch: DayWindow, transit: DayRange, country: Country): DayWindow {
  return {
    from: addWorkingDays(dispatch.from, transit.min, country),
    to: addWorkingDays(dispatch.to, transit.max, country),
  };
}

export interface Estimate {
  /** Today as the shop's clock shows it, for "today" and "tomorrow" in texts. */
  today: IsoDate;
  /** The times hold for orders placed before the cut-off on this day. */
  orderBefore: IsoDate;
  sent: DayWindow;
  delivered: DayWindow;
}

export interface EstimateSettings {
  cutOff: CutOff;
  timeZone?: string;
}

export function estimate(
  now: Date,
  production: DayRange,
  country: Country,
  settings: EstimateSettings,
): Estimate {
  if (production.min < 1 || production.max < production.min) {
    throw new RangeError(`production days must be 1 or more, min before max: ${JSON.stringify(production)}`);
  }
  const moment = localMoment(now, settings.timeZone);
  const start = productionStart(moment, settings.cutOff, country);
  const sent = dispatchWindow(start, production, country);
  return {
    today: moment.date,
    orderBefore: start,
    sent,
    delivered: deliveryWindow(sent, transitDays[country], country),
  };
}

/**
 * The next moment at which an estimate made now can change: today's cut-off if it is
 * still ahead, otherwise the coming midnight ("tomorrow" becomes "today").
 */
export function nextChange(now: Date, settings: EstimateSettings): Date {
  const zone = settings.timeZone ?? shopTimeZone;
  const moment = localMoment(now, zone);
  if (moment.minutes < minutesOf(settings.cutOff))
    return instantAt(moment.date, minutesOf(settings.cutOff), zone);
  return instantAt(addDays(moment.date, 1), 0, zone);
}
