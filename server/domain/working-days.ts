import Holidays from "date-holidays";

/**
 * Working days: Monday to Friday, except the public holidays of a country (date-holidays,
 * type "public" only: Good Friday is not a public holiday in the Netherlands, Liberation
 * Day only a school holiday, so both are working days there).
 *
 * Dates are calendar days written as ISO "YYYY-MM-DD" strings: they compare as strings,
 * travel in JSON unchanged and carry no time zone that could shift them by a day.
 */

export type IsoDate = string;
export type Country = "NL" | "DE";

const isoPattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = 86_400_000;

function toUtc(date: IsoDate): number {
  const match = isoPattern.exec(date);
  if (!match) throw new RangeError(`not a calendar date: ${JSON.stringify(date)}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

function fromUtc(ms: number): IsoDate {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromUtc(toUtc(date) + days * dayMs);
}

/** 0 = Sunday … 6 = Saturday, as Date.getUTCDay. */
export function weekday(date: IsoDate): number {
  return new Date(toUtc(date)).getUTCDay();
}

/** Noon UTC of the day, for Intl formatting with timeZone "UTC": never a neighbouring day. */
export function calendarNoon(date: IsoDate): Date {
  return new Date(toUtc(date) + dayMs / 2);
}

const calendars = new Map<Country, Holidays>();
const holidaysByYear = new Map<string, ReadonlySet<IsoDate>>();

/** The public holidays of one year, computed once per country and year. */
export function publicHolidays(country: Country, year: number): ReadonlySet<IsoDate> {
  const key = `${country}:${year}`;
  let days = holidaysByYear.get(key);
  if (!days) {
    let calendar = calendars.get(country);
    if (!calendar) {
      calendar = new Holidays(country);
      calendars.set(country, calendar);
    }
    const list = calendar.getHolidays(year);
    if (!Array.isArray(list) || list.length === 0) {
      // A calendar without holidays means the library cannot answer: better no times than wrong ones.
      throw new Error(`no public holidays known for ${country} in ${year}`);
    }
    days = new Set(list.filter((h) => h.type === "public").map((h) => h.date.slice(0, 10)));
    holidaysByYear.set(key, days);
  }
  return days;
}

export function isPublicHoliday(date: IsoDate, country: Country): boolean {
  return publicHolidays(country, Number(date.slice(0, 4))).has(date);
}

export function isWorkingDay(date: IsoDate, country: Country): boolean {
  const day = weekday(date);
  return day !== 0 && day !== 6 && !isPublicHoliday(date, country);
}

/** The first working day on or after date. */
export function workingDayFrom(date: IsoDate, country: Country): IsoDate {
  let day = date;
  // A run of non-working days is at most a long weekend plus Christmas; 14 is a generous bound.
  for (let i = 0; i < 14; i++) {
    if (isWorkingDay(day, country)) return day;
    day = addDays(day, 1);
  }
  throw new Error(`no working day within two weeks of ${date} in ${country}`);
}

/** The working day `count` working days after date (count 0: date itself if it is one, else the next). */
export function addWorkingDays(date: IsoDate, count: number, country: Country): IsoDate {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`working days must be 0 or more: ${count}`);
  let day = workingDayFrom(date, country);
  for (let i = 0; i < count; i++) day = workingDayFrom(addDays(day, 1), country);
  return day;
}
