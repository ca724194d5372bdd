import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { RelativeTimePageProps } from "../../islands/relative-time/contract.ts";
import type { Category, Product } from "../domain/catalogue.ts";
import { formatPrice } from "../domain/money.ts";
import { type RelativeKind, type RelativeTimeTexts, relativeTimeText } from "../domain/relative-time.ts";
import { frameUrl } from "../domain/viewer-frames.ts";
import {
  defaultLocale,
  intlLocale,
  type Locale,
  localeFromAcceptLanguage,
  locales,
} from "../i18n/locales.ts";
import { isRouteId, type RouteId, type RouteParams } from "../i18n/routes.ts";
import { lookup, type Translate } from "../i18n/translate.ts";
import { readCartId } from "./cart-cookie.ts";
import { holdsCredentials } from "./form-protection.ts";
import { escapeHtml, placeholderSrc, renderAttributes, scriptJson } from "./html.ts";
import type { LiveRoutes } from "./localized-routes.ts";
import {
  acceptsGzip,
  type CachedPage,
  createPageCache,
  cutPage,
  fillPage,
  fillPageGzip,
  secretPageGzip,
  sharedPageGzip,
  tokenPlaceholder,
} from "./page-cache.ts";
import type { Services } from "./services.ts";
import { claimsSession } from "./signed-in.ts";

declare module "fastify" {
  interface FastifyRequest {
    locale: Locale;
  }
  interface FastifyReply {
    /**
     * Renders a page (or, for an ajax request, its fragment). Data may be a function, also
     * an async one: it is then only called when the page is rendered, not when a kept copy
     * of the page is sent.
     */
    page(
      template: string,
      data: PageData | (() => PageData | Promise<PageData>),
      options?: PageOptions,
    ): Promise<FastifyReply>;
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
  /** A query per locale that is part of what the page shows (a product option), kept by the language switcher. */
  alternateQuery?: Record<Locale, string>;
  /** Pages that must not be indexed: errors, the cart. */
  noindex?: boolean;
  /**
   * The partial an ajax request (X-Requested-With: XMLHttpRequest) gets instead of the
   * whole page: the part its data-ajax-update target shows. Same data, same template family.
   */
  fragment?: string;
  /** Shared by every shopper without a cart: may be served from the short-lived page cache. */
  cacheable?: boolean;
  /**
   * What a cacheable page shows besides its address that can change while a copy is
   * kept, such as the product page's dispatch dates (they change at the order cut-off
   * and at midnight): pages with another variant never share a copy.
   */
  cacheVariant?: string;
  /**
   * For a page of one shopper's own (their cart): a name for everything of theirs it shows,
   * such as the cart's id and revision. The rendered page is kept under it, briefly and in
   * this process, and each response fills in the shopper's own token; a name that changes
   * with every change of what is shown can never give out a stale copy.
   */
  personal?: string;
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
  routeId: RouteId | undefined;
  canonical: string | undefined;
  alternates: Alternate[];
  cartCount: number;
  /**
   * The browser says it is signed in (a session cookie with a good signature): the header
   * links to the account instead of to signing in. The account pages ask the database.
   */
  signedIn: boolean;
  csrfToken: () => string;
  noindex: boolean;
  catalogue: Services["catalogue"];
  /** A text group as JSON, for islands that need the words (plural forms, say) in an attribute. */
  textsJson: (key: string) => string;
  /** Behaviours whose props the layout must ship once for the browser; partials call use(). */
  used: Set<string>;
  use: (hook: string) => string;
  /** A behaviour's page-wide props as JSON, for <script type="application/json" data-props-for>. */
  pageProps: (hook: string) => string;
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
  /** The src of an image that waits for a script: an empty SVG of its size (server/http/html.ts). */
  placeholder: (width: number, height: number) => string;
  /** A full date and time in the shopper's locale, e.g. for a title attribute. */
  dateTime: (date: Date | string) => string;
  /** Links to catalogue pages in the page's locale. */
  productHref: (product: Product) => string;
  /** A value as JSON that is safe inside a <script type="application/json"> (or ld+json) element. */
  json: (value: unknown) => string;
  /** The 360 viewer's frame address (server/domain/viewer-frames.ts), for its partial. */
  frameUrl: typeof frameUrl;
  categoryHref: (category: Category) => string;
}

/**
 * The props of behaviours that have no element of their own to carry them (islands/runtime/props.ts,
 * pageProps), from the page's texts.
 */
const pagePropsOf: Record<string, (group: (key: string) => unknown) => unknown> = {
  "relative-time": (group): RelativeTimePageProps => ({ texts: group("relativeTime") as RelativeTimeTexts }),
};

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

/** A Host header as browsers send it: a domain name or an IP address, and perhaps a port. */
const plainHost =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

/**
 * The origin for absolute links (canonical, hreflang, share links, structured data).
 * Without PUBLIC_URL it comes from the request, so anyone can name another; the page
 * cache keys on it (see page()), and a header that is no plain host (one meant to
 * smuggle a path or markup into links) gives way to the shop's own local address.
 */
export function originOf(request: FastifyRequest, services: Services): string {
  const { publicUrl, port } = services.config;
  if (publicUrl) return publicUrl;
  const asked = request.host;
  return `${request.protocol}://${plainHost.test(asked) ? asked.toLowerCase() : `localhost:${port}`}`;
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
  // One entry per shopper: fewer, kept longer than the shared pages (a cart revisited).
  const personalPages = createPageCache({ ttlMs: 60_000, maxEntries: 300 });

  app.decorateRequest("locale", defaultLocale);
  // Callback style, not async: a hook on every request should not cost a promise.
  app.addHook("onRequest", (request, _reply, done) => {
    request.locale = localeOfRequest(request, services);
    done();
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
    async function page(
      this: FastifyReply,
      template: string,
      data: PageData | (() => PageData | Promise<PageData>),
      options: PageOptions = {},
    ) {
      const request = this.request;
      const locale = request.locale;
      const view = options.fragment && isAjax(request) ? options.fragment : template;
      const send = (html: string | Buffer, gzip?: boolean) => {
        this.code(options.status ?? 200);
        this.header("content-language", locale);
        const vary = [options.fragment && "X-Requested-With", gzip !== undefined && "Accept-Encoding"];
        if (vary.some(Boolean)) this.header("vary", vary.filter(Boolean).join(", "));
        // Tells the ajax behaviour that an error answer (429, 503) is still the fragment to show.
        if (view === options.fragment) this.header("x-ajax-fragment", "true");
        // Already compressed: @fastify/compress passes an encoded reply through untouched.
        if (gzip) this.header("content-encoding", "gzip");
        return this.type("text/html; charset=utf-8").send(html);
      };
      /** A cached page for this shopper: gzip straight from the cache where the browser takes it. */
      const sendCached = (page: CachedPage) => {
        const gzip = acceptsGzip(request.headers["accept-encoding"]);
        if (!holdsCredentials(request)) {
          // A visitor without cookies gets everyone's answer, ready-made.
          const shared = app.sharedFormTokens.current();
          const sharedToken = () => shared;
          // Offered as everyone's answer, which also lets shared caches keep it (private-caching.ts);
          // only the gzip form is kept ready here.
          this.keepReady();
          if (!gzip) return send(fillPage(page, sharedToken), false);
          return send(sharedPageGzip(page, shared), true);
        }
        const token = () => this.generateCsrf();
        if (!gzip) return send(fillPage(page, token), false);
        // The signed cookie as sent: a browser without one yet gets it set with a new token now.
        const secret = request.cookies._csrf;
        const genuine = (value: string) => request.unsignCookie(value).valid;
        return send(secret ? secretPageGzip(page, secret, token, genuine) : fillPageGzip(page, token), true);
      };
      const origin = originOf(request, services);
      const cacheable = request.method === "GET" && !services.config.development;
      // A personal page names what it shows of the shopper (their cart at a revision), which
      // includes the header's count: a copy found under that name needs no query at all.
      const signedIn = claimsSession(request);
      const personalKey =
        cacheable && options.personal !== undefined
          ? `${origin} ${locale} ${view} ${options.personal} ${signedIn} ${request.url}`
          : undefined;
      const personalCopy = personalKey ? personalPages.get(personalKey) : undefined;
      if (personalCopy) return sendCached(personalCopy);

      // Unsigning is an HMAC: once per page, not once per use.
      const cartId = readCartId(request);
      const count = await cartCount(request, cartId);
      // A shared page differs between shoppers only in the header's cart count (the CSRF
      // token is filled in per response), so shoppers with as many items share one copy.
      // The origin is in its links: a request naming another host must never hand its
      // links to everyone else. Only a GET: a post's answer says what that post did.
      const cacheKey =
        options.cacheable && cacheable
          ? `${origin} ${locale} ${view} ${count} ${signedIn} ${options.cacheVariant ?? ""} ${request.url}`
          : undefined;
      const cached = cacheKey ? cache.get(cacheKey) : undefined;
      if (cached) return sendCached(cached);
      const keptAs = cacheKey ?? personalKey;

      const routeId = request.routeOptions.config?.routeId;
      const params = request.params as RouteParams;
      const alternates: Alternate[] = locales.map((l) => {
        const query = options.alternateQuery?.[l];
        // Whichever route this is, its parameters are known only now, from the request.
        const href =
          (routeId
            ? i18n.routes.pathForUntyped(routeId, l, options.alternateParams?.[l] ?? params)
            : i18n.routes.pathFor("home", l)) + (query ? `?${query}` : "");
        return {
          locale: l,
          name: i18n.t[l]("language.name"),
          href,
          url: routeId ? origin + href : undefined,
        };
      });
      let token: string | undefined;
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
        href: (id, p) => i18n.routes.pathForUntyped(id, locale, p),
        live: (id) => isRouteId(id) && live.has(id),
        money: (cents) => formatPrice(cents, locale),
        number: (value) => numberFormats[locale].format(value),
        asset: services.asset,
        routeId,
        canonical: alternates.find((a) => a.locale === locale)?.url,
        alternates,
        cartCount: count,
        signedIn,
        csrfToken: () => {
          // A page bound for the cache gets a placeholder; each response fills in its own token.
          if (keptAs) return tokenPlaceholder;
          token ??= holdsCredentials(request) ? this.generateCsrf() : app.sharedFormTokens.current();
          return token;
        },
        noindex: options.noindex ?? false,
        catalogue: services.catalogue,
        textsJson: (key) => JSON.stringify(group(key)),
        used,
        use: (hook) => {
          used.add(hook);
          return "";
        },
        pageProps: (hook) => {
          const props = pagePropsOf[hook];
          if (!props) throw new Error(`no page-wide props for "${hook}"`);
          return scriptJson(props(group));
        },
        with(extra) {
          return Object.assign(Object.create(this) as PageContext, extra);
        },
        escape: escapeHtml,
        placeholder: placeholderSrc,
        attrs: renderAttributes,
        dateTime: (date) => dateTimeFormats[locale].format(new Date(date)),
        productHref: (product) => services.links.product(product, locale),
        json: scriptJson,
        frameUrl,
        categoryHref: (category) => services.links.category(category, locale),
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
      const html = await this.viewAsync(view, {
        ...context,
        ...(typeof data === "function" ? await data() : data),
      });
      if (!keptAs) return send(html);
      const page = cutPage(html);
      (cacheKey ? cache : personalPages).set(keptAs, page);
      return sendCached(page);
    },
  );
}
