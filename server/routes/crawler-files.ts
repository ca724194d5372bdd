import type { FastifyInstance } from "fastify";
import { robotsTxt, sitemapXml } from "../domain/crawler-files.ts";
import { contentParameters, disallowedPrefixes, publicPages } from "../domain/public-pages.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import type { Services } from "../http/services.ts";
import { perLocale } from "../i18n/locales.ts";
import { infoTopics } from "./subscription.ts";

/** Crawlers may keep these for an hour: they change only with a new release or an FAQ edit. */
const crawlerCaching = "public, max-age=3600";

/**
 * /sitemap.xml and /robots.txt, at the root where crawlers look for them, outside the
 * route table (they have no language).
 *
 * What they depend on: the route table (locales/*.json) and the catalogue are read once
 * at start-up and never change while the shop runs; the FAQ's files may (an editor's
 * save, server/domain/faq.ts), so the sitemap is made again when the FAQ's version
 * changes. Both name the shop's origin (PUBLIC_URL, or this machine: originOf), so each
 * origin has its own copy.
 */
export function crawlerFileRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const { catalogue, faq, i18n } = services;
  const parameters = contentParameters(catalogue, faq, () =>
    infoTopics.map((topic) =>
      perLocale((l) => ({ topic: i18n.t[l](`subscription.info.topics.${topic}.slug`) })),
    ),
  );
  // Per origin (at most PUBLIC_URL or a few names of this machine), the copy and the FAQ version it shows.
  const sitemaps = new Map<string, { faqVersion: number; body: string }>();

  app.get("/sitemap.xml", async (request, reply) => {
    const origin = originOf(request, services);
    const faqVersion = faq.version();
    let kept = sitemaps.get(origin);
    if (kept?.faqVersion !== faqVersion) {
      kept = { faqVersion, body: sitemapXml(origin, publicPages(i18n.routes, routes.live, parameters)) };
      sitemaps.set(origin, kept);
    }
    const body = kept.body;
    return reply.type("application/xml; charset=utf-8").header("cache-control", crawlerCaching).send(body);
  });

  const disallowed = disallowedPrefixes(i18n.routes);
  app.get("/robots.txt", async (request, reply) => {
    const text = robotsTxt(disallowed, `${originOf(request, services)}/sitemap.xml`);
    return reply.type("text/plain; charset=utf-8").header("cache-control", crawlerCaching).send(text);
  });
}
