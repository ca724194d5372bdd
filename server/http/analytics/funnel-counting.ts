import type { FastifyInstance, onResponseHookHandler } from "fastify";
import { type FunnelStep, funnelViewSteps } from "../../domain/analytics-catalogue.ts";
import type { Catalogue } from "../../domain/catalogue.ts";
import { locales } from "../../i18n/locales.ts";
import type { RouteId } from "../../i18n/routes.ts";
import { isAjax } from "../rendering/pages.ts";
import { isSpeculative } from "../speculation/speculation-rules.ts";
import type { AnalyticsCounters } from "./analytics-counters.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The funnel's counters: flush() writes what was counted now (tests, tools) instead of at the next tick. */
    analyticsCounters: AnalyticsCounters;
  }
}

/** Pages whose every view is a funnel step. */
const viewSteps: Partial<Record<RouteId, FunnelStep>> = funnelViewSteps;

/** Often enough that a dashboard is never far behind; rarely enough to cost nothing. */
export const flushEveryMs = 10_000;

/**
 * Counts the funnel's page views on the server, where JavaScript and blockers play no
 * part. The count sits in the page's onResponse hook, which also runs for a ready answer
 * (ready-answers.ts skips the route, not the response's end), so a page sent from a cache
 * counts as one shown. A 200 only: a redirect or a refused form is no view, and an ajax
 * fragment is part of a page already counted. A page fetched ahead (Sec-Purpose: prefetch,
 * speculation rules) is not a view yet: it counts when the shopper opens it, through its
 * view beacon (routes/analytics.ts). The counters are written every ten seconds
 * and when the shop closes, before its database does.
 */
export function registerFunnelCounting(
  app: FastifyInstance,
  counters: AnalyticsCounters,
  catalogue: Catalogue,
): void {
  app.decorate("analyticsCounters", counters);
  const productBySlug = new Map(
    locales.map((l) => [l, new Map(catalogue.products.map((p) => [p.slug[l], p.id]))] as const),
  );

  app.addHook("onRoute", (route) => {
    const routeId = route.config?.routeId;
    const locale = route.config?.locale;
    const step = routeId && viewSteps[routeId];
    if (!step || !locale || route.method !== "GET") return;
    // Each language's path is a route of its own (localizedRoutes): its language is known here.
    const products = routeId === "product" ? productBySlug.get(locale) : undefined;
    const counted: onResponseHookHandler = (request, reply, done) => {
      if (reply.statusCode === 200 && !isAjax(request) && !isSpeculative(request)) {
        const slug = products && (request.params as { product?: string }).product;
        counters.count(step, locale, slug ? products.get(slug) : undefined);
      }
      done();
    };
    route.onResponse = [...(route.onResponse ? [route.onResponse].flat() : []), counted];
  });

  let timer: NodeJS.Timeout | undefined;
  app.addHook("onReady", async () => {
    timer = setInterval(() => void counters.flush(), flushEveryMs);
    timer.unref();
  });
  app.addHook("onClose", async () => {
    clearInterval(timer);
    await counters.flush();
  });
}
