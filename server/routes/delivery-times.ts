import type { FastifyInstance, FastifyRequest } from "fastify";
import type { contract } from "../../islands/delivery-times/contract.ts";
import type { ParamsOf } from "../../islands/runtime/define-hook.ts";
import type { DeliveryOverview } from "../domain/delivery-overview.ts";
import { keptJson } from "../http/caching/kept-json.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { partOfTheDay } from "../http/rendering/page-variants.ts";
import type { Services } from "../http/services.ts";

/**
 * The delivery-times overview: a page the server renders whole (it works without
 * JavaScript), and the same overview as JSON for the delivery-times island, which
 * fetches it again when the cut-off or midnight passes while the page is open.
 * When the times cannot be computed both say so (the spec's error text 1), never
 * showing an empty or out-of-date table.
 */
export function deliveryTimesRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, deliveryTimes } = services;

  const compute = (request: FastifyRequest, now = services.now()): DeliveryOverview | undefined => {
    try {
      return deliveryTimes.overview(request.locale, now);
    } catch (err) {
      request.log.error({ err }, "delivery times could not be computed");
      return undefined;
    }
  };

  route("deliveryTimes", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    // One moment for the overview and the name of the part of the day it is kept under.
    const now = services.now();
    const overview = compute(request, now);
    const params: ParamsOf<typeof contract> = {
      overview,
      endpoint: i18n.routes.pathFor("deliveryTimesData", locale),
    };
    // The times change at the cut-off and at midnight: browsers and proxies keep no copy. The
    // shop keeps the rendered page per part of the day (as the product page's dates), so a
    // copy never outlives the part it was made in. An open page made from a copy asks for the
    // new times at most the copy's age late (the page cache keeps one for 30 s).
    reply.header("cache-control", "no-store");
    return reply.page(
      "pages/delivery-times",
      {
        title: t("deliveryTimes.title"),
        description: t("deliveryTimes.description"),
        cutOff: deliveryTimes.cutOff,
        deliveryTimes: params,
      },
      overview ? { cacheable: true, ...partOfTheDay(services, now) } : { status: 503 },
    );
  });

  const sendJson = keptJson();

  // As cheap as a page (the overview is computed once per locale and half-day), so not rate limited either.
  route("deliveryTimesData", "GET", async (request, reply) => {
    // Made at a whole second, so one encoded answer serves every request in it. The island
    // counts the answer's life from generatedAt to refreshAt: a moment up to a second early
    // makes it ask again up to a second late, never early.
    const now = new Date(Math.floor(services.now().getTime() / 1000) * 1000);
    const overview = compute(request, now);
    reply.header("cache-control", "no-store").header("content-language", request.locale);
    if (!overview) {
      return reply.code(503).send({ error: i18n.t[request.locale]("deliveryTimes.unavailable") });
    }
    // The same browser asking again within the second gets the answer as sent (ready-answers.ts).
    reply.keepReady({
      meanwhile: () => Math.floor(services.now().getTime() / 1000) * 1000 === now.getTime(),
    });
    return sendJson(reply, request.locale, overview.generatedAt, () => overview);
  });
}
