import type { FastifyInstance } from "fastify";
import { fromPriceCents } from "../domain/catalogue.ts";
import { organization } from "../domain/structured-data.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { firstRowCards } from "../http/rendering/first-row.ts";
import { originOf } from "../http/rendering/origin.ts";
import type { Services } from "../http/services.ts";

/** The home page presents the whole range, grouped by category. */
export function homeRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { catalogue, i18n } = services;
  let shown = 0;
  const range = catalogue.categories.map((category) => ({
    category,
    products: catalogue.productsIn(category.id).map((product) => ({
      product,
      fromPriceCents: fromPriceCents(product),
      // The first row is in view on arrival: load it at once, the rest when scrolled near.
      eager: shown++ < firstRowCards,
      // Click analytics: the card's place on the page, from 1 (shown has just counted it).
      list: "home",
      position: shown,
    })),
  }));

  route("home", "GET", async (request, reply) => {
    const t = i18n.t[request.locale];
    return reply.page(
      "pages/home",
      () => {
        const origin = originOf(request, services);
        return {
          title: t("home.title"),
          description: t("home.description"),
          range,
          structuredData: organization(
            services.company,
            request.locale,
            origin,
            origin + i18n.routes.pathFor("home", request.locale),
            `${origin}/static/images/icons/icon-512.png`,
          ),
        };
      },
      { cacheable: true },
    );
  });
}
