import type { FastifyRequest } from "fastify";
import type { RelativeTimePageProps } from "../../../islands/relative-time/contract.ts";
import type { Category, Product } from "../../domain/catalogue.ts";
import { type CustomerServiceContact, customerServiceContact, sellerLine } from "../../domain/company.ts";
import { formatPrice } from "../../domain/money.ts";
import { type RelativeKind, type RelativeTimeTexts, relativeTimeText } from "../../domain/relative-time.ts";
import { shopTimeZone } from "../../domain/shop-time-zone.ts";
import { frameUrl } from "../../domain/viewer-frames.ts";
import { intlLocale, type Locale, locales, perLocale } from "../../i18n/locales.ts";
import { isRouteId, type RouteId, type RouteParams } from "../../i18n/routes.ts";
import { lookup, type Translate } from "../../i18n/translate.ts";
import type { LiveRoutes } from "../localized-routes.ts";
import type { Services } from "../services.ts";
import { escapeHtml, placeholderSrc, renderAttributes, scriptJson } from "./html.ts";

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
  /**
   * The meta description a page gets when its data names none: its route's text from the
   * pageDescriptions group (the error text on pages that match no route).
   */
  description: string | undefined;
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
  /**
   * The built-in test provider takes the payments: every page says so, so nobody mistakes
   * the shop for one that takes real orders.
   */
  testPayments: boolean;
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
  /** The src of an image that waits for a script: an empty SVG of its size (server/http/rendering/html.ts). */
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
  /** The seller's name, address, register and VAT id (content/company.json), for the footer's line. */
  seller: Record<string, string>;
  /** Where this language's shoppers reach customer service (content/company.json). */
  customerService: CustomerServiceContact;
  /**
   * A part of the page rendered once and kept in this process, for every page that shows
   * the same: `shows` must name everything the part shows beyond the language, the form
   * token and what the shop loads at start-up (catalogue, texts), as a route's declaration
   * does (`tipsShown` in routes/cart.ts). Rendered afresh where the forms carry a token of
   * the shopper's own.
   */
  fragment: (shows: string, render: () => string) => string;
}

/**
 * The props of behaviours that have no element of their own to carry them (islands/runtime/props.ts,
 * pageProps), from the page's texts.
 */
const pagePropsOf: Record<string, (group: (key: string) => unknown) => unknown> = {
  "relative-time": (group): RelativeTimePageProps => ({ texts: group("relativeTime") as RelativeTimeTexts }),
};

/** What a page's context is made from, besides what the shop knows at start-up. */
export interface ContextInput {
  request: FastifyRequest;
  origin: string;
  alternateParams: Record<Locale, RouteParams> | undefined;
  alternateQuery: Record<Locale, string> | undefined;
  cartCount: number;
  signedIn: boolean;
  noindex: boolean;
  csrfToken: () => string;
  /**
   * Parts of the page may be kept (fragment): its forms carry the shared token, so parts are
   * the same for everyone, and templates do not change under the process (not development).
   */
  keepFragments: boolean;
}

/** Parts of pages kept (PageContext.fragment): few, and small, so a bound on their number is enough. */
const maxFragments = 500;

/**
 * Makes the context every template receives, for one request. What depends only on the
 * language (number and date formats) is made once here.
 */
export function pageContexts(services: Services, live: LiveRoutes): (input: ContextInput) => PageContext {
  const { i18n } = services;
  const numberFormats = perLocale((l) => new Intl.NumberFormat(intlLocale[l]));
  const sellers = perLocale((l) => sellerLine(services.company, l));
  const contacts = perLocale((l) => customerServiceContact(services.company, l));
  const dateTimeFormats = perLocale(
    (l) =>
      new Intl.DateTimeFormat(intlLocale[l], {
        dateStyle: "long",
        timeStyle: "short",
        timeZone: shopTimeZone,
      }),
  );
  const fragments = new Map<string, { html: string; hooks: string[] }>();
  return ({
    request,
    origin,
    alternateParams,
    alternateQuery,
    cartCount,
    signedIn,
    noindex,
    csrfToken,
    keepFragments,
  }) => {
    const locale = request.locale;
    const routeId = request.routeOptions.config?.routeId;
    const params = request.params as RouteParams;
    const alternates: Alternate[] = locales.map((l) => {
      const query = alternateQuery?.[l];
      // Whichever route this is, its parameters are known only now, from the request.
      const href =
        (routeId
          ? i18n.routes.pathForUntyped(routeId, l, alternateParams?.[l] ?? params)
          : i18n.routes.pathFor("home", l)) + (query ? `?${query}` : "");
      return {
        locale: l,
        name: i18n.t[l]("language.name"),
        href,
        url: routeId ? origin + href : undefined,
      };
    });
    const fallbackDescription = (id: RouteId | undefined) => {
      const text = lookup(i18n.messages[locale], `pageDescriptions.${id ?? "error"}`);
      return typeof text === "string" ? text : undefined;
    };
    const used = new Set<string>();
    const group = (key: string) => {
      const node = lookup(i18n.messages[locale], key);
      if (node === undefined) throw new Error(`no texts under "${key}" for ${locale}`);
      return node;
    };
    return {
      locale,
      lang: locale,
      t: i18n.t[locale],
      href: (id, p) => i18n.routes.pathForUntyped(id, locale, p),
      live: (id) => isRouteId(id) && live.has(id),
      money: (cents) => formatPrice(cents, locale),
      number: (value) => numberFormats[locale].format(value),
      asset: services.asset,
      routeId,
      description: fallbackDescription(routeId),
      canonical: alternates.find((a) => a.locale === locale)?.url,
      alternates,
      cartCount,
      signedIn,
      csrfToken,
      noindex,
      testPayments: services.config.payments.provider === "test",
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
      seller: sellers[locale],
      customerService: contacts[locale],
      fragment(shows, render) {
        if (!keepFragments) return render();
        const key = `${locale} ${csrfToken()} ${shows}`;
        const kept = fragments.get(key);
        if (kept) {
          for (const hook of kept.hooks) used.add(hook);
          return kept.html;
        }
        const before = new Set(used);
        const html = render();
        fragments.set(key, { html, hooks: [...used].filter((hook) => !before.has(hook)) });
        // Maps keep insertion order: the first key is the oldest.
        if (fragments.size > maxFragments) fragments.delete(fragments.keys().next().value as string);
        return html;
      },
      relativeTime: (date, kind) =>
        relativeTimeText(
          new Date(date),
          new Date(),
          kind,
          group("relativeTime") as unknown as RelativeTimeTexts,
          intlLocale[locale],
        ),
    };
  };
}
