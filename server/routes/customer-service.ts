import type { FastifyInstance } from "fastify";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { faqVersion } from "../http/rendering/page-variants.ts";
import type { Services } from "../http/services.ts";
import { faqNavigation } from "./faq.ts";

/** The support home: the FAQ by topic, the contact form, the delivery times and how to reach us. */
export function customerServiceRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
): void {
  const route = routes.on(app);
  const { i18n } = services;
  route("customerService", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    return reply.page(
      "pages/customer-service",
      () => ({
        title: t("customerService.title"),
        description: t("customerService.description"),
        faqNav: faqNavigation(services, locale),
      }),
      { cacheable: true, ...faqVersion(services) },
    );
  });
}
