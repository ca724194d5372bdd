import type { FastifyInstance } from "fastify";
import { legalPageIds } from "../domain/legal-pages.ts";
import {
  createSearchIndex,
  cutQuery,
  type SearchHit,
  type SearchIndex,
  type SearchKind,
} from "../domain/search.ts";
import { type SearchPage, searchDocuments } from "../domain/search-documents.ts";
import { loadSearchSynonyms } from "../domain/search-synonyms.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { faqVersion } from "../http/rendering/page-variants.ts";
import type { Services } from "../http/services.ts";
import { type Locale, perLocale } from "../i18n/locales.ts";

/** How many suggestions the field offers as the shopper types; the results page lists every hit. */
export const suggestionLimit = 6;

const kinds: readonly SearchKind[] = ["faq", "product", "page"];

/**
 * The information pages the search finds, so that "retourneren" or "kündigen" leads to
 * them: the legal pages with their whole text, and the subscription's contract forms
 * ("Verträge hier kündigen", "Vertrag widerrufen") by their title and introduction.
 */
function informationPages(services: Services, locale: Locale): SearchPage[] {
  const { legal, i18n } = services;
  const t = i18n.t[locale];
  const legalPages = legalPageIds.map((id): SearchPage => {
    const page = legal.page(id, locale);
    return {
      id,
      title: page.title,
      href: i18n.routes.pathFor(id, locale),
      context: t("legal.footer.heading"),
      body: page.text,
      aliases: [t(`legal.footer.links.${id}`)],
    };
  });
  const contractForms = (
    [
      ["contractCancel", "cancel"],
      ["contractWithdraw", "withdraw"],
    ] as const
  ).map(
    ([id, key]): SearchPage => ({
      id,
      title: t(`contractForms.${key}.title`),
      href: i18n.routes.pathFor(id, locale),
      context: t("contractForms.footer.heading"),
      body: [t(`contractForms.${key}.intro`), t("contractForms.noSignIn")],
    }),
  );
  return [...legalPages, ...contractForms];
}

/** The index per language: made at start-up, and again once the FAQ's files were taken in anew. */
function searchIndexes(services: Services): (locale: Locale) => SearchIndex {
  const { faq, catalogue, i18n, links } = services;
  // The editors' words that mean the same, read once: a mistake in the file stops the start.
  const synonyms = loadSearchSynonyms();
  const build = () =>
    perLocale((locale) =>
      createSearchIndex(
        searchDocuments({
          locale,
          topics: faq.topics(locale),
          catalogue,
          questionHref: (topic, question) =>
            i18n.routes.pathFor("faqQuestion", locale, { topic: topic.slug, question }),
          productHref: (product) => links.product(product, locale),
          pages: informationPages(services, locale),
        }),
        locale,
        synonyms[locale],
      ),
    );
  let version = faq.version();
  let indexes = build();
  return (locale) => {
    // Cheap: the FAQ looks at its files' times at most every few seconds.
    if (faq.version() !== version) {
      version = faq.version();
      indexes = build();
    }
    return indexes[locale];
  };
}

/**
 * The support search: a results page for the form on the customer-service, FAQ and
 * delivery-times pages (GET, field q), and the same address answering an ajax request
 * with the suggestions the field shows as the shopper types.
 *
 * The answer depends on whatever a shopper types, so it is noindex and never kept in the
 * page cache: a copy per query would push the shop's shared pages out of it. The index
 * makes each answer cheap, and the header's cart count is always the shopper's own.
 */
export function searchRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n } = services;
  const indexFor = searchIndexes(services);

  route("search", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const query = cutQuery((request.query as Record<string, unknown>).q);
    const view = (hit: SearchHit, position: number) => ({
      kind: hit.document.kind,
      kindLabel: t(`search.kinds.${hit.document.kind}`),
      title: hit.document.title,
      href: hit.document.href,
      context: hit.document.context,
      snippet: hit.snippet,
      position,
    });
    reply.header("x-robots-tag", "noindex");
    return reply.page(
      "pages/search",
      () => {
        const hits = query ? indexFor(locale).search(query) : [];
        return {
          title: query ? t("search.titleFor", { query }) : t("search.title"),
          description: t("search.description"),
          crumbs: [
            { label: t("customerService.title"), href: i18n.routes.pathFor("customerService", locale) },
            { label: t("search.breadcrumb") },
          ],
          query,
          total: hits.length,
          groups: kinds
            .map((kind) => ({
              kind,
              heading: t(`search.groups.${kind}`),
              results: hits.filter((hit) => hit.document.kind === kind).map((hit, i) => view(hit, i + 1)),
            }))
            .filter((group) => group.results.length > 0),
          suggestions: {
            items: hits.slice(0, suggestionLimit).map((hit, i) => view(hit, i + 1)),
            total: hits.length,
            allHref: `${i18n.routes.pathFor("search", locale)}?${new URLSearchParams({ q: query })}`,
          },
        };
      },
      {
        noindex: true,
        // The same words find the same answers for everyone until an editor changes the FAQ:
        // a function, so a kept copy searches nothing.
        cacheable: true,
        ...faqVersion(services),
        fragment: "partials/support-search-suggestions",
        // The language switcher searches the same words in the other language.
        ...(query ? { alternateQuery: perLocale(() => new URLSearchParams({ q: query }).toString()) } : {}),
      },
    );
  });
}
