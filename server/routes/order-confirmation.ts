import type { FastifyInstance } from "fastify";
import { addressLines } from "../domain/delivery-address.ts";
import { orderIdOf, orderNumber } from "../domain/order-number.ts";
import { readCartId } from "../http/cart-cookie.ts";
import { type LiveRoutes, localizedRoute } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";
import { choiceText, workingDaysText } from "../i18n/product-texts.ts";

/**
 * The confirmation page an order redirects to. It shows the order only to the browser
 * whose cart placed it (the signed cart cookie); to anyone else the address does not exist.
 */
export function orderConfirmationRoutes(app: FastifyInstance, services: Services, live: LiveRoutes): void {
  const { i18n, orders } = services;

  localizedRoute(app, i18n.routes, live, "orderConfirmation", "GET", async (request, reply) => {
    const t = i18n.t[request.locale];
    const { number } = request.params as { number: string };
    const orderId = orderIdOf(number);
    const cartId = readCartId(request);
    const order = orderId !== undefined && cartId ? await orders.find(orderId, cartId) : undefined;
    if (!order) return reply.callNotFound();
    const countryName = t(`fields.countries.${order.address.country}`);
    const projectIds = order.lines.flatMap((line) => (line.projectId ? [line.projectId] : []));
    const projects = projectIds.length > 0 ? await services.projects.summaries(projectIds) : new Map();
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/order-confirmation",
      {
        title: t("order.title"),
        order,
        orderNumber: orderNumber(order.id),
        // Names in the page's language where the product still exists; else as ordered.
        lines: order.lines.map((line) => {
          const product = services.catalogue.product(line.productId);
          const project = line.projectId ? projects.get(line.projectId) : undefined;
          return {
            line,
            name: product?.name[request.locale] ?? line.productName,
            image: product?.image,
            choice: choiceText(t, line),
            ...(project && {
              project: {
                text: t("editor.cart.line", {
                  photos: t("editor.cart.photos", { count: project.photoCount }),
                }),
              },
            }),
          };
        }),
        totals: { ...order, country: order.address.country },
        countryName,
        addressLines: addressLines(order.address, countryName),
        production: t("overview.production", { days: workingDaysText(t, order.production) }),
      },
      { noindex: true },
    );
  });
}
