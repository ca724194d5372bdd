import { relative, resolve } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import type { Locale } from "../../server/i18n/locales.ts";
import { type CheckShop, requestHeader, viewHeader } from "./shop.ts";

/** One answer of the shop, as the checks read it. */
export interface RenderedPage {
  /** The route id, or "notFound" for the 404 page. */
  routeId: string;
  locale: Locale;
  method: string;
  url: string;
  status: number;
  html: string;
  /** The page template that rendered it, as a path such as views/pages/home.eta. */
  template: string | undefined;
  /** What the shop logged while answering (a 500's cause). */
  failure: string | undefined;
  /** The cookies it was asked with: links on a shopper's own pages are followed as that shopper. */
  cookie: string;
}

export const isHtml = (response: LightMyRequestResponse) =>
  String(response.headers["content-type"] ?? "").startsWith("text/html");

/** "pages/home" → views/pages/home.eta, named from the views folder so a copy reads like the original. */
export function templatePath(views: string, name: string): string {
  const file = resolve(views, `${name.replace(/^[/@]+/, "").replace(/\.eta$/, "")}.eta`);
  return `views/${relative(views, file).replaceAll("\\", "/")}`;
}

export function renderedPage(
  shop: CheckShop,
  page: { routeId: string; locale: Locale; method?: string; url: string; cookie?: string },
  response: LightMyRequestResponse,
): RenderedPage {
  const view = response.headers[viewHeader];
  const requestId = response.headers[requestHeader];
  return {
    routeId: page.routeId,
    locale: page.locale,
    method: page.method ?? "GET",
    url: page.url,
    status: response.statusCode,
    html: response.body,
    template: typeof view === "string" ? templatePath(shop.views, view) : undefined,
    failure: shop.failure(typeof requestId === "string" ? requestId : undefined),
    cookie: page.cookie ?? "",
  };
}

export async function render(
  shop: CheckShop,
  page: { routeId: string; locale: Locale; url: string; cookie?: string },
): Promise<{ page: RenderedPage; response: LightMyRequestResponse }> {
  const response = await shop.app.inject({
    method: "GET",
    url: page.url,
    headers: page.cookie ? { cookie: page.cookie } : {},
  });
  return { page: renderedPage(shop, page, response), response };
}
