import type { FastifyInstance } from "fastify";
import { legalPageIds } from "../domain/legal-pages.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";

/**
 * The legal pages (server/domain/legal-pages.ts), each the editors' Markdown from
 * content/legal/ in the shop's layout, and the withdrawal flow for orders: it lists the
 * products with a right of withdrawal (content/legal/withdrawal.json) and how to use it, or
 * says that every product is made to the shopper's photos and has none.
 */
export function legalRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, legal, withdrawalRights, company } = services;

  for (const id of legalPageIds) {
    route(id, "GET", async (request, reply) => {
      const page = legal.page(id, request.locale);
      return reply.page(
        "pages/legal",
        { title: page.title, description: page.description, legalPage: id, html: page.html },
        { cacheable: true },
      );
    });
  }

  route("orderWithdrawal", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    return reply.page(
      "pages/order-withdrawal",
      {
        title: t("legal.orderWithdrawal.title"),
        description: t("legal.orderWithdrawal.description"),
        withdrawable: withdrawalRights.withdrawable.map((product) => ({
          name: product.name[locale],
          href: services.links.product(product, locale),
        })),
        email: company.customerService[locale].email,
      },
      { cacheable: true },
    );
  });
}
