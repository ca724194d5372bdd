import type { DayWindow } from "./delivery-times.ts";
import { addDays, calendarNoon, type IsoDate } from "./working-days.ts";

/**
 * Days in words: "vandaag", "morgen", or the weekday with its date in the locale's own
 * names ("woensdag 8 april", "Mittwoch, 8. April"), and windows of days built from them.
 * The words come from the locale files (deliveryTimes.days); names from Intl.
 */
export interface DayTexts {
  today: string;
  tomorrow: string;
  /** A date in a sentence, "op {date}" / "am {date}". */
  on: string;
  /** Two days in a row, "{from} of {to}". */
  either: string;
  /** A longer window that starts today or tomorrow, "tussen {from} en {to}". */
  between: string;
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(lang: string): Intl.DateTimeFormat {
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      weekday: "long",
      day: "numeric",
      month: "long",
      timeZone: "UTC",
    });
    dateFormats.set(lang, format);
  }
  return format;
}

/** The weekday and date, "woensdag 8 april". */
export function dateText(date: IsoDate, lang: string): string {
  return dateFormat(lang).format(calendarNoon(date));
}

/** "vandaag", "morgen" or "woensdag 8 april". */
export function dayText(date: IsoDate, today: IsoDate, lang: string, texts: DayTexts): string {
  if (date === today) return texts.today;
  if (date === addDays(today, 1)) return texts.tomorrow;
  return dateText(date, lang);
}

/** As dayText, but for use inside a sentence: "vandaag", "morgen", "op woensdag 8 april". */
export function dayPhrase(date: IsoDate, today: IsoDate, lang: string, texts: DayTexts): string {
  const text = dayText(date, today, lang, texts);
  return date === today || date === addDays(today, 1) ? text : fill(texts.on, { date: text });
}

/**
 * A window of days: one day as dayText; "vandaag of morgen"; "tussen morgen en vrijdag
 * 10 april"; and two dates as Intl writes a range ("woensdag 8 – vrijdag 10 april").
 */
export function windowText(window: DayWindow, today: IsoDate, lang: string, texts: DayTexts): string {
  const from = dayText(window.from, today, lang, texts);
  if (window.from === window.to) return from;
  const to = dayText(window.to, today, lang, texts);
  if (window.to === addDays(window.from, 1) && window.from <= addDays(today, 1)) {
    return fill(texts.either, { from, to });
  }
  if (window.from <= addDays(today, 1)) return fill(texts.between, { from, to });
  return dateFormat(lang).formatRange(calendarNoon(window.from), calendarNoon(window.to));
}

/** First letter upper-cased, for a text that starts a table cell. */
export function capitalize(text: string, lang: string): string {
  return text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
}
