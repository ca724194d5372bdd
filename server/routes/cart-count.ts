import type { FastifyInstance } from "fastify";
import { readCartId } from "../http/cookies/cart-cookie.ts";
import type { Services } from "../http/services.ts";

/** The header badge's source for a page restored from the back/forward cache (islands/cart-count). */
export const cartCountPath = "/api/cart-count";

/**
 * The number of items in this browser's cart, as JSON. A page restored from the
 * back/forward cache shows the count it had when it was left; the cart may have changed
 * in another tab since, so the badge asks again (ADR 0095). Never kept by any cache.
 */
export function cartCountRoutes(app: FastifyInstance, { carts }: Services): void {
  app.get(cartCountPath, { config: { csrf: false } }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    const cartId = readCartId(request);
    try {
      return { count: cartId ? await carts.itemCount(cartId) : 0 };
    } catch (err) {
      request.log.warn({ err }, "cart count unavailable");
      return reply.code(503).send({ error: "count unavailable" });
    }
  });
}
