/** The shop's languages. nl comes first: it is the default wherever no other choice applies. */
export const locales = ["nl", "de"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "nl";

/** BCP 47 tags for Intl: prices, numbers and dates follow the shopper's country. */
export const intlLocale: Record<Locale, string> = { nl: "nl-NL", de: "de-DE" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}

/** The locale a browser asks for in Accept-Language, if it is one we serve. */
export function localeFromAcceptLanguage(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.find((p) => p.trim().startsWith("q="));
      return { lang: tag.trim().toLowerCase().split("-")[0], q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((e) => Number.isFinite(e.q) && e.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked.map((e) => e.lang).find(isLocale);
}

/** One value per locale, typed as such (Object.fromEntries loses the keys' type). */
export function perLocale<T>(make: (locale: Locale) => T): Record<Locale, T> {
  return Object.fromEntries(locales.map((l) => [l, make(l)])) as Record<Locale, T>;
}
