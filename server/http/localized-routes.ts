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

/**
 * Registers one handler under the route's path in every locale, tagged with its id and
 * locale. A path that every locale shares (an /api/ address without a language, such as the
 * payment webhook) is registered once, tagged with the first locale.
 */
export function localizedRoute(
  app: FastifyInstance,
  table: RouteTable,
  live: LiveRoutes,
  id: RouteId,
  method: Method,
  handler: RouteHandlerMethod,
  config: Omit<FastifyContextConfig, "routeId" | "locale"> = {},
): void {
  const registered = new Set<string>();
  for (const locale of locales) {
    const url = table.pattern(id, locale);
    if (registered.has(url)) continue;
    registered.add(url);
    app.route({
      method,
      url,
      config: { ...config, routeId: id, locale },
      handler,
    });
  }
  if (method === "GET") live.add(id);
}
