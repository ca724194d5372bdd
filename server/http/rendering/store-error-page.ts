import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import type { Services } from "../services.ts";

/** One posted value; a field sent twice (a tampered form) counts as missing. */
function posted(request: FastifyRequest, name: string): string | undefined {
  const body = request.body;
  const value = body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * Where "try again" leads: back to the product page (and option) an add came from, so the
 * shopper finds the form again; for everything else the cart.
 */
function retryHref(request: FastifyRequest, services: Services): string {
  const locale = request.locale;
  const fromProductPage =
    request.method === "POST" &&
    (posted(request, "intent") ?? "add") === "add" &&
    posted(request, "from") !== "cart" &&
    posted(request, "project") === undefined;
  const productId = fromProductPage ? posted(request, "product") : undefined;
  const product = productId ? services.catalogue.product(productId) : undefined;
  if (product) {
    const size = product.sizes.find(
      (s) => s.orientation === posted(request, "orientation") && s.id === posted(request, "size"),
    );
    return size ? services.links.choice(product, size, locale) : services.links.product(product, locale);
  }
  return services.i18n.routes.pathFor("cartContents", locale);
}

/**
 * Cart and checkout pages that fail on the server (the database is down, say) answer
 * 503 with a page that says nothing was lost and how to reach customer service. An ajax
 * post gets the same as a fragment (marked x-ajax-fragment by reply.page), which the ajax
 * behaviour puts where the changed region would have gone, rather than its generic failure.
 * Everything a shopper did wrong (4xx) goes on to the shop's own error pages.
 * Register inside the scope (app.register) that holds the cart routes.
 */
export function registerCartErrorPage(scope: FastifyInstance, services: Services): void {
  scope.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status < 500) throw error;
    request.log.error({ err: error }, "cart unavailable");
    const t = services.i18n.t[request.locale];
    reply.header("cache-control", "no-store");
    reply.header("retry-after", "60");
    return reply.page(
      "pages/cart-unavailable",
      { title: t("cartUnavailable.title"), retryHref: retryHref(request, services) },
      { status: 503, noindex: true, fragment: "partials/cart-unavailable" },
    );
  });
}
