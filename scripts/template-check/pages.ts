import type { Category, Product } from "../../server/domain/catalogue.ts";
import { isPhotoBook } from "../../server/domain/photo-books.ts";
import { type Locale, locales } from "../../server/i18n/locales.ts";
import { isRouteId, type RouteParams } from "../../server/i18n/routes.ts";
import { infoTopics } from "../../server/routes/subscription.ts";
import type { CheckShop } from "./shop.ts";

export interface PageRequest {
  routeId: string;
  locale: Locale;
  url: string;
}

/** Routes whose parameters only exist once a shopper made something: the journey renders them. */
export const personalRoutes = new Set([
  "editorProject",
  "editorProjectPhotos",
  "orderConfirmation",
  "subscriptionConfirm",
  "subscriptionStatus",
  "subscriptionPayByHand",
  // The account's pages: a signed-in browser's, with what it made in place.
  "account",
  "accountOrders",
  "accountPhotos",
  "accountSubscription",
  "accountAddresses",
  "accountAddress",
  "accountSettings",
  "accountPrivacy",
  "accountConfirm",
  "accountEmailConfirm",
  "passwordReset",
  // A post's address; its GET leads back to the order's page.
  "saveDetails",
  // A claim link's page: for the signed-in account that asked, with the token mailed to the order.
  "orderClaimConfirm",
  // The steps after the cancellation and withdrawal forms, and their mailed links.
  "contractCancelCheck",
  "contractCancelReceived",
  "contractCancelConfirm",
  "contractWithdrawCheck",
  "contractWithdrawReceived",
  "contractWithdrawConfirm",
]);

/** The 404 page, in each language: its locale comes from the first segment of the address. */
export const notFound = "notFound";
const missingPaths: Record<Locale, string> = { nl: "/bestaat-niet-meer", de: "/de/gibt-es-nicht-mehr" };

/**
 * Every page anyone can open without having done anything first: each route of the route
 * table in each language, with its parameters filled from the catalogue, the FAQ and the
 * subscription's explanations, plus the variants that show more (a product with an option
 * in its address, the editor with a book chosen, search results and a search without hits)
 * and the 404 page.
 */
export function publicPages(
  shop: CheckShop,
  wanted: (routeId: string) => boolean,
): { pages: PageRequest[]; unfilled: string[] } {
  const { app, catalogue, faq } = shop;
  const routes = app.i18n.routes;
  const categoryOf = (product: Product) => catalogue.category(product.category) as Category;

  const paramsFor = (id: string, locale: Locale): RouteParams[] | undefined => {
    const t = app.i18n.t[locale];
    switch (id) {
      case "category":
        return catalogue.categories.map((c) => ({ category: c.slug[locale] }));
      case "product":
        return catalogue.products.map((p) => ({
          category: categoryOf(p).slug[locale],
          product: p.slug[locale],
        }));
      case "faqTopic":
        return faq.topics(locale).map((topic) => ({ topic: topic.slug }));
      case "faqQuestion":
        return faq
          .topics(locale)
          .flatMap((topic) => topic.questions.map((q) => ({ topic: topic.slug, question: q.slug })));
      case "subscriptionInfo":
        return infoTopics.map((topic) => ({ topic: t(`subscription.info.topics.${topic}.slug`) }));
      default:
        return undefined;
    }
  };

  /** The pages that show more than their plain address does. */
  const variants = (locale: Locale): PageRequest[] => {
    const t = app.i18n.t[locale];
    const option = (product: Product) => {
      const size = product.sizes.find((s) => s.id !== product.recommended.size) ?? product.sizes[0];
      if (!size) return "";
      return new URLSearchParams([
        [t("product.query.orientation"), t(`orientationSlug.${size.orientation}`)],
        [t("product.query.size"), size.id],
      ]).toString();
    };
    const out: PageRequest[] = [];
    const product = catalogue.products[0];
    if (product && wanted("product")) {
      const path = routes.pathForUntyped("product", locale, {
        category: categoryOf(product).slug[locale],
        product: product.slug[locale],
      });
      out.push({ routeId: "product", locale, url: `${path}?${option(product)}` });
    }
    const book = catalogue.products.find(isPhotoBook);
    if (book && wanted("editorStart")) {
      const query = `${new URLSearchParams([[t("editor.query.product"), book.slug[locale]]])}&${option(book)}`;
      out.push({
        routeId: "editorStart",
        locale,
        url: `${routes.pathForUntyped("editorStart", locale)}?${query}`,
      });
    }
    if (wanted("search")) {
      // Results (a word every FAQ and the catalogue use) and a query that finds nothing.
      const search = routes.pathForUntyped("search", locale);
      const word = locale === "nl" ? "fotoboek" : "fotobuch";
      out.push({ routeId: "search", locale, url: `${search}?q=${word}` });
      out.push({ routeId: "search", locale, url: `${search}?q=zzzqqq` });
    }
    return out;
  };

  const pages: PageRequest[] = [];
  const unfilled = new Set<string>();
  for (const locale of locales) {
    for (const id of routes.ids) {
      if (!isRouteId(id) || !wanted(id) || personalRoutes.has(id)) continue;
      const pattern = routes.pattern(id, locale);
      // Routes that only take posts are where forms go; the link check looks at those.
      if (!app.hasRoute({ method: "GET", url: pattern })) continue;
      const names = [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const sets = names.length === 0 ? [{}] : paramsFor(id, locale);
      if (!sets) {
        unfilled.add(`${id} (no values for :${names.join(", :")})`);
        continue;
      }
      for (const params of sets)
        pages.push({ routeId: id, locale, url: routes.pathForUntyped(id, locale, params) });
    }
    pages.push(...variants(locale));
    if (wanted(notFound)) pages.push({ routeId: notFound, locale, url: missingPaths[locale] });
  }
  return { pages, unfilled: [...unfilled] };
}
