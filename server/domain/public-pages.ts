import { type Locale, locales, perLocale } from "../i18n/locales.ts";
import type { RouteId, RouteParams, RouteTable } from "../i18n/routes.ts";
import type { Catalogue } from "./catalogue.ts";
import type { FaqContent } from "./faq.ts";

/**
 * Which pages are for everyone to find (the sitemap lists them) and which are kept from
 * crawlers (robots.txt disallows them), decided from the route table so that a new page
 * is public without anyone remembering to list it.
 *
 * - A route under /api/ is for scripts: kept out.
 * - A route in `keptFromCrawlers` is one shopper's own (cart, account, order, payment, a
 *   mailed link) or a step of a form (search, sign-in, a thank-you page): kept out.
 * - Any other route without parameters is public.
 * - A route with parameters is public only where the catalogue or the content names its
 *   pages (`PublicParameters`); one whose parameter is a token, a number or an id is
 *   someone's own, and never listed.
 */

/** Kept from crawlers in every language; the compiler checks each id against the route table. */
export const keptFromCrawlers: ReadonlySet<RouteId> = new Set<RouteId>([
  // The editors' pattern library (off in production).
  "patterns",
  "patternsTip",
  "patternsForm",
  "patternsGreeting",
  "patternsRules",
  // The cart and checkout.
  "cartContents",
  "cartAddress",
  "cartOverview",
  // Answers to a form and what follows a post.
  "search",
  "contactThanks",
  "subscriptionSignup",
  "subscriptionWelcome",
  "subscriptionConfirm",
  "subscriptionStatus",
  "subscriptionPayByHand",
  "contractCancelCheck",
  "contractCancelReceived",
  "contractCancelConfirm",
  "contractWithdrawCheck",
  "contractWithdrawReceived",
  "contractWithdrawConfirm",
  // A shopper's photo-book projects.
  "editorUpload",
  "editorPhotoRemove",
  "editorProject",
  "editorProjectPhotos",
  // Orders and payments.
  "orderConfirmation",
  "testPayment",
  "saveDetails",
  "orderClaim",
  "orderClaimConfirm",
  // The account and how to get one. The sign-in page itself stays findable: shoppers search
  // for "Fotohoek inloggen", and a page kept from crawlers scores Lighthouse SEO 69.
  "signOut",
  "accountCreate",
  "accountMailSent",
  "accountConfirm",
  "passwordForgotten",
  "passwordReset",
  "account",
  "accountOrders",
  "accountPhotos",
  "accountSubscription",
  "accountSubscriptionPlan",
  "accountSubscriptionCountry",
  "accountAddresses",
  "accountAddress",
  "accountAddressRemove",
  "accountSettings",
  "accountPassword",
  "accountEmail",
  "accountEmailConfirm",
  "accountSignOutEverywhere",
  "accountPrivacy",
  "accountExport",
  "accountDelete",
]);

/** A page's parameters in every language (slugs are translated). */
export type LocalizedParams = Record<Locale, RouteParams>;

/** Where the pages of a route with parameters come from, per route id. */
export type PublicParameters = Partial<Record<RouteId, () => LocalizedParams[]>>;

export interface PublicPage {
  id: RouteId;
  /** Site-relative, per language. */
  paths: Record<Locale, string>;
}

/** The pages whose parameters the catalogue, the FAQ and the subscription's topics name. */
export function contentParameters(
  catalogue: Catalogue,
  faq: FaqContent,
  subscriptionTopics: () => LocalizedParams[],
): PublicParameters {
  const [first] = locales;
  return {
    category: () => catalogue.categories.map((c) => perLocale((l) => ({ category: c.slug[l] }))),
    product: () =>
      catalogue.products.map((p) => {
        const category = catalogue.category(p.category);
        return perLocale((l) => ({ category: category?.slug[l] ?? "", product: p.slug[l] }));
      }),
    faqTopic: () =>
      faq.topics(first).map((topic) => perLocale((l) => ({ topic: faq.topicById(l, topic.id)?.slug ?? "" }))),
    faqQuestion: () =>
      faq.topics(first).flatMap((topic) =>
        topic.questions.map((question) =>
          perLocale((l) => {
            const own = faq.topicById(l, topic.id);
            return {
              topic: own?.slug ?? "",
              question: own?.questions.find((q) => q.id === question.id)?.slug ?? "",
            };
          }),
        ),
      ),
    subscriptionInfo: subscriptionTopics,
  };
}

export function isKeptFromCrawlers(id: RouteId, routes: RouteTable): boolean {
  return keptFromCrawlers.has(id) || locales.some((l) => routes.pattern(id, l).startsWith("/api/"));
}

const hasParameters = (routes: RouteTable, id: RouteId) =>
  locales.some((l) => routes.pattern(id, l).includes(":"));

/** Every public page, in the route table's order: the home page first. */
export function publicPages(
  routes: RouteTable,
  live: ReadonlySet<RouteId>,
  parameters: PublicParameters,
): PublicPage[] {
  const pages: PublicPage[] = [];
  for (const id of routes.ids as RouteId[]) {
    if (!live.has(id) || isKeptFromCrawlers(id, routes)) continue;
    const paths = (params?: LocalizedParams) => perLocale((l) => routes.pathForUntyped(id, l, params?.[l]));
    if (!hasParameters(routes, id)) pages.push({ id, paths: paths() });
    else for (const params of parameters[id]?.() ?? []) pages.push({ id, paths: paths(params) });
  }
  return pages;
}

/**
 * What robots.txt disallows: each kept-out route's path up to its first parameter, in every
 * language, without those another one already covers (/account covers /account/orders).
 */
export function disallowedPrefixes(routes: RouteTable): string[] {
  const prefixes = new Set<string>(["/api/"]);
  for (const id of routes.ids as RouteId[]) {
    if (!keptFromCrawlers.has(id)) continue;
    for (const l of locales) prefixes.add(routes.pattern(id, l).split(":")[0] as string);
  }
  const sorted = [...prefixes].sort();
  return sorted.filter((p) => !sorted.some((q) => q !== p && p.startsWith(q)));
}
