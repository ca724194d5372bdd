import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { formatPrice } from "../domain/money.ts";
import { type RelativeKind, type RelativeTimeTexts, relativeTimeText } from "../domain/relative-time.ts";
import {
  defaultLocale,
  intlLocale,
  type Locale,
  localeFromAcceptLanguage,
  locales,
} from "../i18n/locales.ts";
import type { RouteParams } from "../i18n/routes.ts";
import { lookup, type Translate } from "../i18n/translate.ts";
import { readCartId } from "./cart-cookie.ts";
import { escapeHtml, renderAttributes, scriptJson } from "./html.ts";
import type { LiveRoutes } from "./localized-routes.ts";
import { createPageCache } from "./page-cache.ts";
import type { Services } from "./services.ts";

declare module "fastify" {
  interface FastifyRequest {
    locale: Locale;
  }
  interface FastifyReply {
    page(template: string, data: PageData, options?: PageOptions): Promise<FastifyReply>;
  }
}

export interface PageData {
  title: string;
  description?: string;
  [key: string]: unknown;
}

export interface PageOptions {
  status?: number;
  /** Route params per locale, where they are translated too (a product slug, say). */
  alternateParams?: Record<Locale, RouteParams>;
  /** Pages that must not be indexed: errors, the cart. */
  noindex?: boolean;
  /**
   * The partial an ajax request (X-Requested-With: XMLHttpRequest) gets instead of the
   * whole page: the part its data-ajax-update target shows. Same data, same template family.
   */
  fragment?: string;
  /** Shared by every shopper without a cart: may be served from the short-lived page cache. */
  cacheable?: boolean;
}

export function isAjax(request: FastifyRequest): boolean {
  return request.headers["x-requested-with"] === "XMLHttpRequest";
}

export interface Alternate {
  locale: Locale;
  /** Site-relative, for the language switcher */
  href: string;
  /** Absolute, for hreflang; undefined on pages that match no route (errors) */
  url: string | undefined;
  /** The language's own name, as the switcher shows it */
  name: string;
}

/** What every template receives as `it`, besides the page's own data. */
export interface PageContext {
  locale: Locale;
  lang: string;
  t: Translate;
  href: (id: string, params?: RouteParams) => string;
  live: (id: string) => boolean;
  money: (cents: number) => string;
  number: (value: number) => string;
  asset: (name: string) => string;
  routeId: string | undefined;
  canonical: string | undefined;
  alternates: Alternate[];
  cartCount: number;
  csrfToken: () => string;
  noindex: boolean;
  catalogue: Services["catalogue"];
  /** A text group as JSON, for islands that need the words (plural forms, say) in an attribute. */
  textsJson: (key: string) => string;
  /** Features whose texts the layout must ship once for the browser; partials call use(). */
  used: Set<string>;
  use: (feature: string) => string;
  pageTexts: (feature: string) => string;
  relativeTime: (date: Date | string, kind: RelativeKind) => string;
  /**
   * The context plus a partial's own data, for include(): cheaper than spreading the
   * whole context for every card on a page, and reads the same in a template.
   */
  with: (extra: Record<string, unknown>) => PageContext & Record<string, unknown>;
  /** Attributes from a record (a form field's data-val-*), escaped, for <%~ %>. */
  attrs: (attributes: Record<string, string | number | boolean | undefined>) => string;
  /** For the rare template that builds markup in code: escapes text for HTML. */
  escape: (text: string) => string;
  /** A full date and time in the shopper's locale, e.g. for a title attribute. */
  dateTime: (date: Date | string) => string;
}

/** Which locale group holds the texts a page-wide feature needs in the browser. */
const featureTexts: Record<string, string> = { "relative-time": "relativeTime" };

function localeOfRequest(request: FastifyRequest, services: Services): Locale {
  const fromRoute = request.routeOptions.config?.locale;
  if (fromRoute) return fromRoute;
  const path = (request.url.split("?")[0] ?? "/").toLowerCase();
  return (
    services.i18n.routes.localeOfPath(path) ??
    localeFromAcceptLanguage(request.headers["accept-language"]) ??
    defaultLocale
  );
}

function originOf(request: FastifyRequest, services: Services): string {
  return services.config.publicUrl ?? `${request.protocol}://${request.host}`;
}

export function registerPages(app: FastifyInstance, services: Services, live: LiveRoutes): void {
  const { i18n, carts } = services;
  const numberFormats = Object.fromEntries(
    locales.map((l) => [l, new Intl.NumberFormat(intlLocale[l])]),
  ) as Record<Locale, Intl.NumberFormat>;
  const dateTimeFormats = Object.fromEntries(
    locales.map((l) => [
      l,
      new Intl.DateTimeFormat(intlLocale[l], {
        dateStyle: "long",
        timeStyle: "short",
        timeZone: "Europe/Amsterdam",
      }),
    ]),
  ) as Record<Locale, Intl.DateTimeFormat>;

  const cache = createPageCache();

  app.decorateRequest("locale", defaultLocale);
  app.addHook("onRequest", async (request) => {
    request.locale = localeOfRequest(request, services);
  });

  async function cartCount(request: FastifyRequest, cartId: string | undefined): Promise<number> {
    if (!cartId) return 0;
    try {
      return await carts.itemCount(cartId);
    } catch (err) {
      // The badge is a nicety: a page still renders when the database hiccups.
      request.log.warn({ err }, "cart count unavailable");
      return 0;
    }
  }

  app.decorateReply(
    "page",
    async function page(this: FastifyReply, template: string, data: PageData, options: PageOptions = {}) {
      const request = this.request;
      const locale = request.locale;
      const view = options.fragment && isAjax(request) ? options.fragment : template;
      const send = (html: string | Buffer) => {
        this.code(options.status ?? 200);
        this.header("content-language", locale);
        if (options.fragment) this.header("vary", "X-Requested-With");
        return this.type("text/html; charset=utf-8").send(html);
      };
      // Unsigning is an HMAC: once per page, not once per use.
      const cartId = readCartId(request);
      const cacheKey =
        options.cacheable && !services.config.development && !cartId
          ? `${locale} ${view} ${request.url}`
          : undefined;
      const cached = cacheKey ? cache.get(cacheKey) : undefined;
      if (cached) return send(cached);

      const routeId = request.routeOptions.config?.routeId;
      const origin = originOf(request, services);
      const params = request.params as RouteParams;
      const alternates: Alternate[] = locales.map((l) => {
        const href = routeId
          ? i18n.routes.pathFor(routeId, l, options.alternateParams?.[l] ?? params)
          : i18n.routes.pathFor("home", l);
        return {
          locale: l,
          name: i18n.t[l]("language.name"),
          href,
          url: routeId ? origin + href : undefined,
        };
      });
      let token: string | undefined;
      let personal = false;
      const used = new Set<string>();
      const group = (key: string) => {
        const node = lookup(i18n.messages[locale], key);
        if (node === undefined) throw new Error(`no texts under "${key}" for ${locale}`);
        return node;
      };
      const context: PageContext = {
        locale,
        lang: locale,
        t: i18n.t[locale],
        href: (id, p) => i18n.routes.pathFor(id, locale, p),
        live: (id) => live.has(id),
        money: (cents) => formatPrice(cents, locale),
        number: (value) => numberFormats[locale].format(value),
        asset: services.asset,
        routeId,
        canonical: alternates.find((a) => a.locale === locale)?.url,
        alternates,
        cartCount: await cartCount(request, cartId),
        csrfToken: () => {
          personal = true;
          token ??= this.generateCsrf();
          return token;
        },
        noindex: options.noindex ?? false,
        catalogue: services.catalogue,
        textsJson: (key) => JSON.stringify(group(key)),
        used,
        use: (feature) => {
          used.add(feature);
          return "";
        },
        pageTexts: (feature) => scriptJson(group(featureTexts[feature] ?? feature)),
        with(extra) {
          return Object.assign(Object.create(this) as PageContext, extra);
        },
        escape: escapeHtml,
        attrs: renderAttributes,
        dateTime: (date) => dateTimeFormats[locale].format(new Date(date)),
        relativeTime: (date, kind) =>
          relativeTimeText(
            new Date(date),
            new Date(),
            kind,
            group("relativeTime") as unknown as RelativeTimeTexts,
            intlLocale[locale],
          ),
      };
      // viewAsync throws on a template error, so the error handler can answer with the 500 page.
      const html = await this.viewAsync(view, { ...context, ...data });
      if (cacheKey && !personal) cache.set(cacheKey, html);
      return send(html);
    },
  );
}
