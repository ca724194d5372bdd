import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  analyticsEventNames,
  type FunnelViewRoute,
  funnelViewSteps,
  propertiesOf,
} from "../domain/analytics-catalogue.ts";
import { type AnalyticsBatch, analyticsLimits } from "../domain/analytics-event.ts";
import type { Services } from "../http/services.ts";
import { locales } from "../i18n/locales.ts";
import { analyticsRepository } from "../store/analytics-repository.ts";

export const analyticsPath = "/analytics/events";
/** Where a page fetched ahead of time reports that the shopper opened it (islands/analytics/view-beacon.ts). */
export const analyticsViewPath = "/analytics/view";

const viewSchema = z.object({
  route: z.enum(Object.keys(funnelViewSteps) as [FunnelViewRoute, ...FunnelViewRoute[]]),
  locale: z.enum(locales),
  path: z.string().max(300),
});

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}

/** A route's pattern as a whole-path match; each :param one segment, captured by name. */
function patternMatcher(pattern: string): RegExp {
  const source = pattern
    .split("/")
    .map((part) =>
      part.startsWith(":") ? `(?<${part.slice(1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("/");
  return new RegExp(`^${source}$`);
}

/** Only the catalogue's names, each with only its own properties (analytics-catalogue.ts). */
function batchSchema(routeIds: readonly string[]) {
  const value = z.union([z.string().max(analyticsLimits.valueLength), z.number().finite(), z.boolean()]);
  return z.object({
    route: z.enum(routeIds as [string, ...string[]]),
    locale: z.enum(locales),
    events: z
      .array(
        z
          .object({
            event: z.enum(analyticsEventNames as [string, ...string[]]),
            properties: z.record(z.string(), value),
          })
          .refine(
            ({ event, properties }) =>
              Object.keys(properties).every((key) => propertiesOf(event).includes(key)),
            "a property the event does not list",
          ),
      )
      .min(1)
      .max(analyticsLimits.eventsPerBatch),
  });
}

function reject(reply: FastifyReply, status: number, error: string) {
  return reply.code(status).header("cache-control", "no-store").send({ error });
}

/** Beacons come from our own pages only; browsers say where a request came from. */
function fromOurPages(request: FastifyRequest): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined) return site === "same-origin";
  const origin = request.headers.origin;
  return origin === undefined || origin === `${request.protocol}://${request.host}`;
}

/**
 * Browser analytics: batches of anonymous events (no IP address, no user agent, no
 * free text) sent by navigator.sendBeacon. Anything oversized or malformed, and any name or
 * property outside the catalogue, is a 400. The funnel is not taken from here: the server
 * counts its steps itself (analytics-counters.ts).
 */
export async function analyticsRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const schema = batchSchema(services.i18n.routes.ids);
  const repository = analyticsRepository(services.database.db);

  /**
   * A beacon carries up to 20 events: every one counts against the client's limit
   * (ANALYTICS_RATE_LIMIT a minute), and a batch that does not fit is stored not at all.
   */
  const tooManyEvents = async (request: FastifyRequest, reply: FastifyReply, events: number) => {
    const limit = services.limits.analyticsEvents;
    const counted = await Promise.all(Array.from({ length: events }, () => limit(request)));
    const over = counted.find((rate) => !rate.isAllowed && rate.isExceeded);
    if (!over || over.isAllowed) return false;
    reply.header("retry-after", String(Math.max(1, over.ttlInSeconds)));
    return true;
  };

  await app.register(async (scope) => {
    // sendBeacon may send a Blob without a type; read text/plain bodies as JSON here only.
    scope.addContentTypeParser("text/plain", { parseAs: "string" }, (_request, body, done) => {
      try {
        done(null, JSON.parse(String(body)));
      } catch {
        done(Object.assign(new Error("malformed JSON"), { statusCode: 400 }), undefined);
      }
    });

    scope.setErrorHandler((error: { statusCode?: number }, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status === 429) return reject(reply, 429, "too many requests");
      if (status < 500) return reject(reply, 400, "malformed or oversized batch");
      request.log.error({ err: error }, "analytics batch not stored");
      return reject(reply, 503, "not stored");
    });

    scope.post(
      analyticsPath,
      {
        bodyLimit: analyticsLimits.batchBytes,
        config: { csrf: false, rateLimit: { max: 60, timeWindow: "1 minute" } },
      },
      async (request, reply) => {
        if (!fromOurPages(request)) return reject(reply, 400, "not from this site");
        const parsed = schema.safeParse(request.body);
        if (!parsed.success) return reject(reply, 400, "malformed or oversized batch");
        if (await tooManyEvents(request, reply, parsed.data.events.length)) {
          // The whole batch is dropped; the page never learns of it (sendBeacon reads no answer).
          return reject(reply, 429, "too many events");
        }
        await repository.record(parsed.data as AnalyticsBatch);
        return reply.code(204).send();
      },
    );

    /**
     * The view of a funnel page that the browser fetched ahead (speculation rules), which the
     * server did not count as it answered: sent once, when the shopper opens the page. Only a
     * funnel page's own address counts; a product page counts for its product.
     */
    const matchers = new Map(
      locales.flatMap((locale) =>
        (Object.keys(funnelViewSteps) as FunnelViewRoute[]).map(
          (route) =>
            [`${locale} ${route}`, patternMatcher(services.i18n.routes.pattern(route, locale))] as const,
        ),
      ),
    );
    scope.post(
      analyticsViewPath,
      {
        bodyLimit: 1024,
        config: { csrf: false, rateLimit: { max: 60, timeWindow: "1 minute" } },
      },
      async (request, reply) => {
        if (!fromOurPages(request)) return reject(reply, 400, "not from this site");
        const parsed = viewSchema.safeParse(request.body);
        const view = parsed.success ? parsed.data : undefined;
        const match = view && matchers.get(`${view.locale} ${view.route}`)?.exec(view.path);
        if (!view || !match) return reject(reply, 400, "not a funnel page");
        let productId: string | undefined;
        if (view.route === "product") {
          const slug = safeDecode(match.groups?.product ?? "");
          productId = services.catalogue.products.find((p) => p.slug[view.locale] === slug)?.id;
          if (!productId) return reject(reply, 400, "not a funnel page");
        }
        services.counters.count(funnelViewSteps[view.route], view.locale, productId);
        return reply.code(204).send();
      },
    );
  });
}
