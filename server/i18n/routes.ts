import { type Locale, locales } from "./locales.ts";
import { type RouteId, type RouteParamsOf, routeParamNames } from "./route-ids.generated.ts";
import type { Messages } from "./translate.ts";

/**
 * The route table: every screen has an id and one path per locale, read from the
 * `routes` and `api` groups of locales/<lang>.json so that translators own the URLs.
 * Templates and redirects build links only through pathFor(), never by hand.
 */

export type { RouteId, RouteParamsOf };

export type RouteParams = Record<string, string>;

/**
 * What pathFor takes after the locale: a route with :params needs all of them, one without
 * takes nothing. Deliberately not distributive: for an id typed as a union of routes, the
 * caller must give the parameters of every member, since any of them may be the one.
 */
export type RouteArgs<Id extends RouteId> = (typeof routeParamNames)[Id] extends readonly []
  ? []
  : [params: RouteParamsOf<Id>];

/** For ids that arrive as plain strings at run time (content files, form definitions, templates). */
export function isRouteId(id: string): id is RouteId {
  return Object.hasOwn(routeParamNames, id);
}

export interface RouteTable {
  readonly ids: readonly string[];
  /** The path of a route in one locale; the compiler checks the id and its parameters. */
  pathFor<Id extends RouteId>(id: Id, locale: Locale, ...params: RouteArgs<Id>): string;
  /**
   * pathFor for an id or parameters the compiler cannot see: links written in Eta templates,
   * the current request's own parameters. Throws on an unknown id or a missing parameter.
   */
  pathForUntyped(id: string, locale: Locale, params?: RouteParams): string;
  /** The raw pattern (with :params), as Fastify registers it. */
  pattern(id: RouteId, locale: Locale): string;
  /** The locale an arbitrary path most likely belongs to, for pages such as 404 that match no route. */
  localeOfPath(path: string): Locale | undefined;
}

const routeGroups = ["routes", "api"] as const;

function patternsOf(messages: Messages, locale: Locale): Map<string, string> {
  const out = new Map<string, string>();
  for (const group of routeGroups) {
    const node = messages[group];
    if (node === undefined) continue;
    if (typeof node === "string") throw new Error(`locales/${locale}.json: "${group}" must be a group`);
    for (const [id, path] of Object.entries(node)) {
      if (typeof path !== "string" || !path.startsWith("/")) {
        throw new Error(`locales/${locale}.json: ${group}.${id} must be a path starting with /`);
      }
      if (out.has(id)) throw new Error(`locales/${locale}.json: route id "${id}" is defined twice`);
      out.set(id, path);
    }
  }
  return out;
}

/** The first fixed segment tells which locale a path is in: /winkelwagen/... is Dutch, /einkaufswagen/... German. */
function firstSegment(path: string): string {
  return path.split("/")[1] ?? "";
}

export function buildRouteTable(messagesByLocale: Record<Locale, Messages>): RouteTable {
  const table = new Map<Locale, Map<string, string>>();
  for (const locale of locales) table.set(locale, patternsOf(messagesByLocale[locale], locale));

  const ids = [...(table.get(locales[0])?.keys() ?? [])];
  for (const locale of locales) {
    const own = table.get(locale) as Map<string, string>;
    const missing = ids.filter((id) => !own.has(id));
    const extra = [...own.keys()].filter((id) => !ids.includes(id));
    if (missing.length || extra.length) {
      throw new Error(
        `locales/${locale}.json: route ids differ from ${locales[0]} (missing: ${missing.join(", ") || "-"}; extra: ${extra.join(", ") || "-"})`,
      );
    }
  }

  const owner = new Map<string, string>();
  const segmentLocale = new Map<string, Locale | null>();
  for (const locale of locales) {
    for (const [id, path] of table.get(locale) as Map<string, string>) {
      const previous = owner.get(path);
      // An address for machines (a provider's webhook) has no language: under /api/ one
      // route may keep the same path in every locale, and is then registered once.
      const sameAddress = previous?.endsWith(`:${id}`) && path.startsWith("/api/");
      if (previous && !sameAddress) {
        throw new Error(`path ${path} is used by both ${previous} and ${locale}:${id}`);
      }
      owner.set(path, `${locale}:${id}`);
      const segment = firstSegment(path);
      if (segment && !segment.startsWith(":")) {
        const known = segmentLocale.get(segment);
        segmentLocale.set(segment, known === undefined || known === locale ? locale : null);
      }
    }
  }

  const pattern = (id: string, locale: Locale): string => {
    const path = table.get(locale)?.get(id);
    if (path === undefined) throw new Error(`unknown route id "${id}"`);
    return path;
  };

  // Patterns split at their :params once; even parts are literal, odd parts parameter names.
  const compiled = new Map<Locale, Map<string, string[]>>(
    locales.map((l) => [
      l,
      new Map([...(table.get(l) as Map<string, string>)].map(([id, path]) => [id, path.split(/:(\w+)/)])),
    ]),
  );

  const pathForUntyped = (id: string, locale: Locale, params: RouteParams = {}): string => {
    const parts = compiled.get(locale)?.get(id);
    if (parts === undefined) throw new Error(`unknown route id "${id}"`);
    let path = parts[0] as string;
    for (let i = 1; i < parts.length; i += 2) {
      const name = parts[i] as string;
      const value = params[name];
      if (value === undefined) throw new Error(`route "${id}" needs parameter "${name}"`);
      path += encodeURIComponent(value) + (parts[i + 1] as string);
    }
    return path;
  };

  return {
    ids,
    pattern,
    pathFor: (id, locale, ...params) => pathForUntyped(id, locale, params[0]),
    pathForUntyped,
    localeOfPath(path) {
      const found = segmentLocale.get(firstSegment(path).toLowerCase());
      return found ?? undefined;
    },
  };
}
