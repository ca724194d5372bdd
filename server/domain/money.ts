import { intlLocale, type Locale, locales } from "../i18n/locales.ts";

const formatters = Object.fromEntries(
  locales.map((l) => [l, new Intl.NumberFormat(intlLocale[l], { style: "currency", currency: "EUR" })]),
) as Record<Locale, Intl.NumberFormat>;

/** Money is integer cents everywhere; it becomes text only here, per the shopper's locale. */
export function formatPrice(cents: number, locale: Locale): string {
  if (!Number.isInteger(cents)) throw new TypeError(`price must be whole cents, got ${cents}`);
  return formatters[locale].format(cents / 100);
}
