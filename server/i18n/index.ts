import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Locale, locales } from "./locales.ts";
import { buildRouteTable, type RouteTable } from "./routes.ts";
import { createTranslate, type Messages, type Translate } from "./translate.ts";

export interface I18n {
  messages: Record<Locale, Messages>;
  routes: RouteTable;
  t: Record<Locale, Translate>;
}

export function loadMessages(dir: string): Record<Locale, Messages> {
  return Object.fromEntries(
    locales.map((l) => {
      const file = resolve(dir, `${l}.json`);
      try {
        return [l, JSON.parse(readFileSync(file, "utf8")) as Messages];
      } catch (err) {
        throw new Error(`${file}: ${(err as Error).message}`);
      }
    }),
  ) as Record<Locale, Messages>;
}

export function createI18n(
  messages: Record<Locale, Messages>,
  onMissing: (key: string, locale: Locale) => void,
): I18n {
  return {
    messages,
    routes: buildRouteTable(messages),
    t: Object.fromEntries(locales.map((l) => [l, createTranslate(l, messages[l], onMissing)])) as Record<
      Locale,
      Translate
    >,
  };
}
