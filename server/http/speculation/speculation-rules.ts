import type { FastifyInstance, FastifyRequest } from "fastify";
import { type Locale, locales } from "../../i18n/locales.ts";
import { type RouteId, routeParamNames } from "../../i18n/route-ids.generated.ts";
import type { RouteTable } from "../../i18n/routes.ts";

/** Where the rules are served; every response names it in its Speculation-Rules header. */
export const speculationRulesPath = "/speculation-rules.json";
/** A structured-field string, as the header's grammar asks. */
export const speculationRulesHeader = `"${speculationRulesPath}"`;

/**
 * Routes a link may never be fetched ahead for: what changes state or says what the shopper
 * means to do (signing out, paying, removing, claiming, exporting), and, below, every route
 * with a token in its address. Most of these are forms, which browsers never speculate on;
 * listing them keeps a future GET link to them safe too.
 */
const neverRoutes: readonly RouteId[] = [
  "signOut",
  "accountSignOutEverywhere",
  "testPayment",
  "paymentWebhook",
  "accountExport",
  "accountDelete",
  "accountAddressRemove",
  "accountSubscriptionPlan",
  "accountSubscriptionCountry",
  "editorPhotoRemove",
  "orderClaim",
  "saveDetails",
];

/** A route's address as a URL pattern: each :param matches one segment's worth of anything. */
const asPattern = (path: string) => path.replace(/:[A-Za-z]+/g, "*");

type Condition = Record<string, unknown>;

/**
 * The shop's speculation rules (ADR 0095): prefetch same-origin page links when the shopper
 * hovers or presses them (moderate); prerender a category page's product links and the cart
 * contents' link to the address step, the next checkout step. Never: the routes above, any
 * route with a :token, any address with a token or an order's secret in its query, the
 * language switch (hreflang: it sets the shopper's language), anything marked
 * data-no-prefetch, the API and the analytics endpoints. Built from the route table, so a
 * new route with a token is excluded without anyone remembering to.
 */
export function speculationRules(routes: RouteTable): Record<string, unknown> {
  const tokenRoutes = (Object.keys(routeParamNames) as RouteId[]).filter((id) =>
    (routeParamNames[id] as readonly string[]).includes("token"),
  );
  const neverPaths = [...neverRoutes, ...tokenRoutes].flatMap((id) =>
    locales.map((locale) => asPattern(routes.pattern(id, locale))),
  );
  const never: Condition = {
    or: [
      ...[...new Set(neverPaths), "/api/*", "/analytics/*"].map((path) => ({ href_matches: path })),
      // Query strings by selector: a pattern's "?" reads as a modifier right after a "*".
      { selector_matches: 'a[href*="?code="], a[href*="&code="], a[href*="token="]' },
      { selector_matches: "a[hreflang], a[download], a[target]" },
      { selector_matches: "[data-no-prefetch], [data-no-prefetch] a" },
    ],
  };
  const allowed = (condition: Condition): Condition => ({ and: [condition, { not: never }] });
  const nextCheckoutStep = locales.map((locale: Locale) => {
    const address = routes.pathFor("cartAddress", locale);
    return `[data-route="cartContents"] a[href="${address}"]`;
  });
  return {
    prefetch: [{ source: "document", where: allowed({ href_matches: "/*" }), eagerness: "moderate" }],
    prerender: [
      {
        source: "document",
        where: allowed({ selector_matches: '[data-route="category"] a.product-card__link' }),
        eagerness: "moderate",
      },
      {
        source: "document",
        where: allowed({ selector_matches: nextCheckoutStep.join(", ") }),
        eagerness: "moderate",
      },
    ],
  };
}

/** Whether the browser is fetching the page ahead of a navigation (prefetch or prerender). */
export function isSpeculative(request: FastifyRequest): boolean {
  const purpose = request.headers["sec-purpose"] ?? request.headers.purpose;
  return typeof purpose === "string" && purpose.includes("prefetch");
}

/**
 * Serves the rules and names them on every answer: the CSP allows no inline script, so no
 * <script type=speculationrules>. The header costs nothing on non-HTML answers (ignored).
 */
export function registerSpeculationRules(app: FastifyInstance, routes: RouteTable): void {
  const body = JSON.stringify(speculationRules(routes));
  app.addHook("onRequest", (request, reply, done) => {
    if (request.method === "GET") reply.header("speculation-rules", speculationRulesHeader);
    done();
  });
  app.get(speculationRulesPath, { config: { csrf: false } }, async (_request, reply) =>
    reply
      .header("content-type", "application/speculationrules+json")
      .header("cache-control", "public, max-age=3600")
      .send(body),
  );
}
