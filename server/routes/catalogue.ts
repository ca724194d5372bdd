import type { FastifyInstance } from "fastify";
import { fromPriceCents } from "../domain/catalogue.ts";
import { breadcrumbList } from "../domain/structured-data.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { firstRowCards } from "../http/rendering/first-row.ts";
import { originOf } from "../http/rendering/origin.ts";
import type { Services } from "../http/services.ts";
import { perLocale } from "../i18n/locales.ts";

/** Category pages: every product of one category as a card that leads to its product page. */
export function catalogueRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { catalogue, i18n } = services;
  let shown = 0;
  const listings = new Map(
    catalogue.categories.map((category) => {
      shown = 0;
      return [
        category.id,
        catalogue.productsIn(category.id).map((product, i) => ({
          product,
          fromPriceCents: fromPriceCents(product),
          // The first row is in view on arrival: load it at once, the rest when scrolled near.
          eager: shown++ < firstRowCards,
          list: "category",
          position: i + 1,
        })),
      ];
    }),
  );

  route("category", "GET", async (request, reply) => {
    const locale = request.locale;
    const slug = (request.params as { category: string }).category;
    const category = catalogue.categories.find((c) => c.slug[locale] === slug);
    if (!category) return reply.callNotFound();
    return reply.page(
      "pages/category",
      () => {
        const origin = originOf(request, services);
        const crumbs = [{ label: category.name[locale] }];
        return {
          title: category.name[locale],
          description: category.intro[locale],
          category,
          products: listings.get(category.id) ?? [],
          crumbs,
          structuredData: breadcrumbList(
            origin,
            { label: i18n.t[locale]("layout.home"), href: i18n.routes.pathFor("home", locale) },
            crumbs,
            origin + services.links.category(category, locale),
          ),
        };
      },
      { alternateParams: perLocale((l) => ({ category: category.slug[l] })), cacheable: true },
    );
  });
}
