import { intlLocale, type Locale } from "./locales.ts";

/** A locale file: nested groups whose leaves are texts or plural forms keyed by Intl plural category. */
export type Messages = { [key: string]: string | Messages };
export type Params = Record<string, string | number>;
export type Translate = (key: string, params?: Params) => string;

const pluralCategories = new Set(["zero", "one", "two", "few", "many", "other"]);

export function missingText(key: string): string {
  return `TRANSLATION MISSING FOR: ${key}`;
}

export function lookup(messages: Messages, key: string): string | Messages | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = node[part];
  }
  return node;
}

function isPluralGroup(node: Messages): boolean {
  const keys = Object.keys(node);
  return keys.includes("other") && keys.every((k) => pluralCategories.has(k));
}

function interpolate(text: string, params: Params | undefined): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * Builds t() for one locale. A text with plural forms picks its form from params.count
 * through Intl.PluralRules, so "1 artikel" / "2 artikelen" needs no code per language.
 */
export function createTranslate(
  locale: Locale,
  messages: Messages,
  onMissing: (key: string, locale: Locale) => void = () => {},
): Translate {
  const plural = new Intl.PluralRules(intlLocale[locale]);
  return (key, params) => {
    const node = lookup(messages, key);
    if (typeof node === "string") return interpolate(node, params);
    if (node && isPluralGroup(node) && typeof params?.count === "number") {
      const category = plural.select(params.count);
      const form = node[category] ?? node.other;
      if (typeof form === "string") return interpolate(form, params);
    }
    onMissing(key, locale);
    return missingText(key);
  };
}

/** Every leaf key of a locale file, plural groups counted as one key; used to keep nl and de in step. */
export function leafKeys(messages: Messages, prefix = ""): string[] {
  return Object.entries(messages).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string" || isPluralGroup(v)) return [key];
    return leafKeys(v, key);
  });
}
