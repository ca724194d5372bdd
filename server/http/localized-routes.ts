import type { FastifyContextConfig, FastifyInstance, RouteHandlerMethod } from "fastify";
import type { Locale } from "../i18n/locales.ts";
import { locales } from "../i18n/locales.ts";
import type { RouteId, RouteTable } from "../i18n/routes.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    routeId?: RouteId;
    locale?: Locale;
    /** false for endpoints that take no form posts from our pages (beacons, health) */
    csrf?: boolean;
  }
}

/** Route ids that have a handler: templates only link to those, so no link leads to a 404. */
export type LiveRoutes = Set<RouteId>;

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Adds one route, by its id, in every language. */
export type RouteAdder = (
  id: RouteId,
  method: Method,
  handler: RouteHandlerMethod,
  config?: Omit<FastifyContextConfig, "routeId" | "locale">,
) => void;

/**
 * The shop's routes, made from the language tables once per app: `on(scope)` gives the
 * adder for the app or for an encapsulated scope (a plugin with a body parser of its own),
 * and `live` says which route ids have a handler.
 */
export interface LocalizedRoutes {
  live: LiveRoutes;
  on(scope: FastifyInstance): RouteAdder;
}

export function localizedRoutes(table: RouteTable): LocalizedRoutes {
  const live: LiveRoutes = new Set();
  return {
    live,
    on:
      (scope) =>
      (id, method, handler, config = {}) => {
        // A path that every locale shares (an /api/ address without a language, such as the
        // payment webhook) is registered once, tagged with the first locale.
        const registered = new Set<string>();
        for (const locale of locales) {
          const url = table.pattern(id, locale);
          if (registered.has(url)) continue;
          registered.add(url);
          scope.route({ method, url, config: { ...config, routeId: id, locale }, handler });
        }
        if (method === "GET") live.add(id);
      },
  };
}
