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

/**
 * A text split at its {placeholders} once, so t() only joins strings: even parts are
 * literal text, odd parts are parameter names.
 */
type Compiled = readonly string[];

function compile(text: string): Compiled {
  return text.split(/\{(\w+)\}/);
}

function fill(parts: Compiled, params: Params | undefined): string {
  if (parts.length === 1) return parts[0] as string;
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    // An unknown parameter stays visible, so a translator sees what is wrong.
    out += (params && name in params ? String(params[name]) : `{${name}}`) + (parts[i + 1] as string);
  }
  return out;
}

type Entry = { text: Compiled } | { plural: Partial<Record<string, Compiled>> & { other: Compiled } };

/** Every text of a locale file by its dotted key, compiled; built once per locale at start-up. */
function compileAll(messages: Messages, prefix = "", into = new Map<string, Entry>()): Map<string, Entry> {
  for (const [k, v] of Object.entries(messages)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") into.set(key, { text: compile(v) });
    else if (isPluralGroup(v)) {
      const forms = Object.fromEntries(
        Object.entries(v).flatMap(([category, form]) =>
          typeof form === "string" ? [[category, compile(form)]] : [],
        ),
      ) as Partial<Record<string, Compiled>> & { other: Compiled };
      into.set(key, { plural: forms });
    } else compileAll(v, key, into);
  }
  return into;
}

/**
 * Builds t() for one locale. A text with plural forms picks its form from params.count
 * through Intl.PluralRules, so "1 artikel" / "2 artikelen" needs no code per language.
 * Pages call t() hundreds of times, so the texts are looked up in a flat map.
 */
export function createTranslate(
  locale: Locale,
  messages: Messages,
  onMissing: (key: string, locale: Locale) => void = () => {},
): Translate {
  const plural = new Intl.PluralRules(intlLocale[locale]);
  const entries = compileAll(messages);
  return (key, params) => {
    const entry = entries.get(key);
    if (entry) {
      if ("text" in entry) return fill(entry.text, params);
      if (typeof params?.count === "number") {
        return fill(entry.plural[plural.select(params.count)] ?? entry.plural.other, params);
      }
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
