import type { Locale } from "../i18n/locales.ts";
import type { Catalogue, Product } from "./catalogue.ts";
import { type FaqTopic, plainText } from "./faq.ts";
import type { SearchDocument } from "./search.ts";

export interface SearchSources {
  locale: Locale;
  topics: readonly FaqTopic[];
  catalogue: Catalogue;
  /** A question's address in this language. */
  questionHref: (topic: FaqTopic, questionSlug: string) => string;
  productHref: (product: Product) => string;
  /** The information pages (the legal pages, the contract forms), each with its text. */
  pages: readonly SearchPage[];
}

/** An information page as the search reads it: its context is the footer group linking it. */
export type SearchPage = Omit<SearchDocument, "kind">;

/**
 * What the support search finds, in one language: every FAQ question (its answer as
 * text, without link markup, and its topic), every product (its summary and category),
 * in the order the content files list them, and the information pages after them.
 */
export function searchDocuments({
  locale,
  topics,
  catalogue,
  questionHref,
  productHref,
  pages,
}: SearchSources): SearchDocument[] {
  const questions = topics.flatMap((topic) =>
    topic.questions.map(
      (q): SearchDocument => ({
        kind: "faq",
        id: q.id,
        title: q.question,
        href: questionHref(topic, q.slug),
        context: topic.title,
        body: q.answer.map(plainText),
      }),
    ),
  );
  const products = catalogue.products.map(
    (p): SearchDocument => ({
      kind: "product",
      id: p.id,
      title: p.name[locale],
      href: productHref(p),
      context: catalogue.category(p.category)?.name[locale] ?? "",
      body: [p.summary[locale]],
    }),
  );
  return [...questions, ...products, ...pages.map((page): SearchDocument => ({ kind: "page", ...page }))];
}
