import type { FastifyInstance } from "fastify";
import { readCartId } from "../http/cart-cookie.ts";
import { type LiveRoutes, localizedRoute } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";

/** The cart contents page. Lines are priced from the catalogue at the moment of viewing. */
export function cartRoutes(app: FastifyInstance, services: Services, live: LiveRoutes): void {
  const { catalogue, carts, i18n } = services;

  localizedRoute(app, i18n.routes, live, "cartContents", "GET", async (request, reply) => {
    const t = i18n.t[request.locale];
    const cartId = readCartId(request);
    const stored = cartId ? await carts.lines(cartId) : [];
    const lines = stored.flatMap((line) => {
      const product = catalogue.product(line.productId);
      const size = product?.sizes.find((s) => s.id === line.sizeId && s.orientation === line.orientation);
      // A product or size taken out of the catalogue silently leaves the cart view.
      if (!product || !size) return [];
      return [
        { ...line, product, unitPriceCents: size.priceCents, totalCents: size.priceCents * line.quantity },
      ];
    });
    const subtotalCents = lines.reduce((sum, l) => sum + l.totalCents, 0);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/cart-contents",
      { title: t("cart.title"), lines, subtotalCents, categories: catalogue.categories },
      { noindex: true },
    );
  });
}
