import type { FastifyInstance } from "fastify";
import { fromPriceCents } from "../domain/catalogue.ts";
import { type LiveRoutes, localizedRoute } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";

const minute = 60_000;
const day = 24 * 60 * minute;

/**
 * The pattern library: every hook and partial, live, with the markup that produces it,
 * in both languages. It is the content editors' reference; each widget adds its example.
 */
export function patternRoutes(app: FastifyInstance, services: Services, live: LiveRoutes): void {
  const { catalogue, config, i18n } = services;
  if (!config.patternLibrary) return;
  const product = catalogue.products.find((p) => p.freeShipping) ?? catalogue.products[0];

  localizedRoute(app, i18n.routes, live, "patterns", "GET", async (request, reply) => {
    const t = i18n.t[request.locale];
    const now = Date.now();
    return reply.page(
      "pages/patterns",
      {
        title: t("patterns.title"),
        example: {
          product: product && { product, fromPriceCents: fromPriceCents(product), eager: false },
          times: {
            ago: [5 * minute, 3 * 60 * minute, 2 * day, 95 * day, 800 * day].map((ms) => new Date(now - ms)),
            remaining: [
              new Date(now + 3 * day + minute),
              new Date(now + 5 * 60 * minute + minute),
              new Date(now - day),
            ],
          },
        },
      },
      { noindex: true },
    );
  });
}
