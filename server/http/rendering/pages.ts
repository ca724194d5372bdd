import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { projectRoot } from "../../config.ts";
import type { Locale } from "../../i18n/locales.ts";
import type { RouteParams } from "../../i18n/routes.ts";
import { digest } from "../caching/digest.ts";
import { answerWithKeptPage } from "../caching/kept-page-answer.ts";
import { type CachedPage, createPageCache, keptPage } from "../caching/page-cache.ts";
import type { PageShows, Source } from "../caching/page-shows.ts";
import { releaseId } from "../caching/release-id.ts";
import type { LiveRoutes } from "../localized-routes.ts";
import { holdsCredentials, sendsFetchMetadata } from "../security/form-protection.ts";
import { claimsSession } from "../security/signed-in.ts";
import type { Services } from "../services.ts";
import { headerCartCount } from "./header-cart-count.ts";
import { originOf } from "./origin.ts";
import { pageContexts } from "./page-context.ts";
import { registerRequestLocale } from "./request-locale.ts";

declare module "fastify" {
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
    /** What the page rendered for this reply declared it shows (PageOptions.shows): read by tests. */
    pageSources?: readonly Source[];
  }
}

export interface PageData {
  title: string;
  description?: string;
  /**
   * The id of an element the browser's first paint waits for (`<link rel="expect"
   * blocking="render">`): on a page whose CSS shows later markup before earlier markup, a
   * paint of the part parsed so far would move what it showed once the rest arrives.
   */
  firstPaintNeeds?: string;
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
   * What cacheVariant would be now (page-variants.ts). With it, a kept page answered to a
   * browser with cookies may go to that browser again as a ready answer, after a check
   * that its variant and the header's cart count still stand; without it, never.
   */
  currentVariant?: () => string;
  /**
   * For a plain page of one shopper's own (their cart, their photo book): what it shows,
   * declared once (page-shows.ts). The rendering is kept under its name, briefly and in this
   * process, and the same browser asking again gets the answer as sent while every part
   * still holds (ready-answers.ts). Read before the data the page shows.
   */
  shows?: PageShows;
  /**
   * For a page of one shopper's own whose data the route reads afresh on every request (an
   * account page): kept under a digest of that data, so the same data is answered without
   * rendering or compressing, and any change makes a new page. Plain data only: what the
   * template gets must be what the digest saw.
   */
  keyedByData?: boolean;
}

export function isAjax(request: FastifyRequest): boolean {
  return request.headers["x-requested-with"] === "XMLHttpRequest";
}

export function registerPages(app: FastifyInstance, services: Services, live: LiveRoutes): void {
  const { carts } = services;
  const pageContext = pageContexts(services, live);
  const cache = createPageCache();
  // One entry per shopper: fewer, kept longer than the shared pages (a cart revisited).
  const personalPages = createPageCache({ ttlMs: 60_000, maxEntries: 300 });

  registerRequestLocale(app, services);
  const release = services.config.development ? "" : releaseId(projectRoot);

  async function cartCount(request: FastifyRequest): Promise<number> {
    try {
      return await headerCartCount(carts, request);
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
      const origin = originOf(request, services);
      const cacheable = request.method === "GET" && !services.config.development;
      // A page that shows the browser's own cart at a revision is named by that revision,
      // which covers the header's count: it is counted from the lines the page reads.
      const countCovered = options.shows?.coversHeaderCount === true && !options.cacheable;
      let count = countCovered ? undefined : await cartCount(request);
      // A personal page names what it shows of the shopper (their cart at a revision, their
      // order, their photos); the header's count, or the cart's revision that covers it, is
      // part of every name, so a change to the cart in another tab is never missed.
      const signedIn = claimsSession(request);
      // Forms carry the hour's shared token, the same for everyone, unless this browser
      // holds our cookies and tells nothing of where its posts come from: then a token of
      // its own, and the page is made for it alone, never kept (form-protection.ts).
      const ownToken = holdsCredentials(request) && !sendsFetchMetadata(request);
      const sharedToken = app.sharedFormTokens.current();
      const keepable = cacheable && !ownToken;
      let resolved: PageData | undefined;
      let personal = options.shows?.key;
      if (options.shows) {
        this.keepReady(options.shows.holds);
        this.pageSources = options.shows.sources;
      }
      if (keepable && personal === undefined && options.keyedByData) {
        resolved = typeof data === "function" ? await data() : data;
        personal = `data ${digest(JSON.stringify(resolved))}`;
      }
      const personalKey =
        keepable && personal !== undefined
          ? `${origin} ${locale} ${view} ${personal} ${count ?? "cart's count"} ${signedIn} ${sharedToken} ${request.url}`
          : undefined;
      // A shared page differs between shoppers only in the header's cart count, so shoppers
      // with as many items share one copy. The origin is in its links: a request naming
      // another host must never hand its links to everyone else. Only a GET: a post's
      // answer says what that post did.
      const cacheKey =
        options.cacheable && keepable
          ? `${origin} ${locale} ${view} ${count} ${signedIn} ${sharedToken} ${options.cacheVariant ?? ""} ${request.url}`
          : undefined;
      const keptAs = cacheKey ?? personalKey;
      // The key names everything the page shows (that is what makes a kept copy safe to
      // send), so with the release it is the page's version: a browser that has it is told
      // so without a rendering, on any instance of the release.
      if (keptAs && (options.status ?? 200) === 200) {
        const etag = `W/"${digest(`${release} ${view} ${keptAs}`)}"`;
        this.header("etag", etag);
        if (request.headers["if-none-match"]?.split(/\s*,\s*/).includes(etag)) return this.code(304).send();
      }
      const personalCopy = personalKey ? personalPages.get(personalKey) : undefined;
      if (personalCopy) return answerWithKeptPage(this, personalCopy, send);
      /**
       * A shared page answered to a shopper (a browser with cookies) may go to the same
       * browser again as a ready answer (ready-answers.ts) while it is still the kept copy,
       * its variant stands and the header's count is the same: no hooks, no route.
       */
      const offerToShopper = (page: CachedPage) => {
        const variantNow = options.currentVariant;
        if (!cacheKey || !holdsCredentials(request)) return;
        if (options.cacheVariant !== undefined && !variantNow) return;
        const variant = options.cacheVariant ?? "";
        this.keepReady({
          meanwhile: () => cache.get(cacheKey) === page && (variantNow?.() ?? "") === variant,
          // The same cookies, so the same cart (its unsigned cookie is remembered: cart-cookie.ts).
          stored: async (again) => (await cartCount(again)) === count,
        });
      };
      const cached = cacheKey ? cache.get(cacheKey) : undefined;
      if (cached) {
        offerToShopper(cached);
        return answerWithKeptPage(this, cached, send);
      }
      if (count === undefined) {
        resolved ??= typeof data === "function" ? await data() : data;
        count = await cartCount(request);
      }
      const context = pageContext({
        request,
        origin,
        alternateParams: options.alternateParams,
        alternateQuery: options.alternateQuery,
        cartCount: count,
        signedIn,
        noindex: options.noindex ?? false,
        keepFragments: !ownToken && !services.config.development,
        csrfToken: () => {
          if (!ownToken) return sharedToken;
          token ??= this.generateCsrf();
          return token;
        },
      });
      let token: string | undefined;
      // viewAsync throws on a template error, so the error handler can answer with the 500 page.
      const html = await this.viewAsync(view, {
        ...context,
        ...(resolved ?? (typeof data === "function" ? await data() : data)),
      });
      if (!keptAs) return send(html);
      const page = keptPage(html, cacheKey !== undefined);
      (cacheKey ? cache : personalPages).set(keptAs, page);
      offerToShopper(page);
      return answerWithKeptPage(this, page, send);
    },
  );
}
