import type { Locale } from "../i18n/locales.ts";
import { bestMatch, matchStrength, type Term, terms, type Word, words } from "./search-normalise.ts";

/**
 * The support search over FAQ questions, products and the information pages, in one
 * language: an index made once from the documents (their words folded and placed), queried
 * with the rule of search-normalise.ts. Every term of a query must match (AND); a document
 * ranks by where its terms match: in the title above in the text, a word that starts with
 * the term above one that only contains its stem. Equal scores keep the documents' own order.
 */

export type SearchKind = "faq" | "product" | "page";

/** One thing the search can find, in one language: a FAQ question, a product, an information page. */
export interface SearchDocument {
  kind: SearchKind;
  id: string;
  title: string;
  href: string;
  /** Where it belongs, shown with it and searched as text: a FAQ topic, a category, a footer group. */
  context: string;
  /** The text searched besides the title, where the snippet comes from: answers, a summary, a page. */
  body: readonly string[];
  /** Other names it goes by, searched as its title but not shown: a page's footer link ("AGB"). */
  aliases?: readonly string[];
}

/** A piece of a snippet; hit marks a word that matched the query. */
export interface SnippetPart {
  text: string;
  hit?: true;
}

export interface SearchHit {
  document: SearchDocument;
  score: number;
  snippet: SnippetPart[];
}

export interface SearchIndex {
  search(query: string): SearchHit[];
}

/** Longer queries are cut to this many characters, in the field and on the server alike. */
export const maxQueryLength = 100;

/** About how many characters a snippet shows of a longer paragraph. */
const snippetLength = 160;
/** How much of the text before the first hit a snippet keeps, for context. */
const snippetLead = 40;

/** Points for a term by where it matched, per match strength (none, stem inside a word, start of a word). */
const titlePoints = [0, 3, 4] as const;
const textPoints = [0, 1, 2] as const;

/** A query as the search takes it: one string, at most maxQueryLength characters (not halving an emoji), trimmed. */
export function cutQuery(raw: unknown): string {
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (typeof first !== "string") return "";
  return Array.from(first).slice(0, maxQueryLength).join("").trim();
}

interface Indexed {
  document: SearchDocument;
  title: Word[];
  text: Word[];
  paragraphs: Word[][];
}

function snippet(paragraph: string, placed: Word[], query: readonly Term[]): SnippetPart[] {
  const isHit = (word: Word) =>
    word.forms.some((form) => query.some((term) => matchStrength(term, form) > 0));
  const firstHit = placed.find(isHit);
  let from = 0;
  let to = paragraph.length;
  if (paragraph.length > snippetLength) {
    const wanted = Math.max(0, (firstHit?.start ?? 0) - snippetLead);
    from = wanted === 0 ? 0 : (placed.find((w) => w.start >= wanted)?.start ?? 0);
    const last = placed.filter((w) => w.start >= from && w.end <= from + snippetLength).at(-1);
    to = last ? Math.max(last.end, firstHit?.end ?? 0) : paragraph.length;
    // Only the closing punctuation left: the snippet ends with the paragraph.
    if (/^[\s.!?…)"”“]*$/.test(paragraph.slice(to))) to = paragraph.length;
  }
  const parts: SnippetPart[] = [];
  const add = (text: string, hit = false) => {
    if (!text) return;
    const previous = parts.at(-1);
    if (previous && !previous.hit && !hit) previous.text += text;
    else parts.push(hit ? { text, hit: true } : { text });
  };
  if (from > 0) add("… ");
  let at = from;
  for (const word of placed) {
    if (word.start < from || word.end > to) continue;
    if (!isHit(word)) continue;
    add(paragraph.slice(at, word.start));
    add(paragraph.slice(word.start, word.end), true);
    at = word.end;
  }
  add(paragraph.slice(at, to));
  if (to < paragraph.length) add(" …");
  return parts;
}

/**
 * Builds the index of one language's documents; search() then costs no work on the
 * documents. `synonyms`: groups of words that mean the same to a shopper
 * (server/domain/search-synonyms.ts); a query word in a group also matches the group's other
 * words, a point below the word itself, so that pages using the word typed come first.
 */
export function createSearchIndex(
  documents: readonly SearchDocument[],
  locale: Locale,
  synonyms: readonly (readonly string[])[] = [],
): SearchIndex {
  const groups = synonyms.map((group) => group.flatMap((word) => terms(word, locale)));
  /** A query term and the other words of every group it belongs to. */
  const alternativesOf = (term: Term): { term: Term; synonym: boolean }[] => {
    const others = groups
      .filter((group) => group.some((word) => word.stem === term.stem))
      .flat()
      .filter((word, i, all) => word.stem !== term.stem && all.findIndex((w) => w.stem === word.stem) === i);
    return [{ term, synonym: false }, ...others.map((other) => ({ term: other, synonym: true }))];
  };
  const indexed: Indexed[] = documents.map((document) => {
    const paragraphs = document.body.map((p) => words(p, locale));
    return {
      document,
      title: [document.title, ...(document.aliases ?? [])].flatMap((name) => words(name, locale)),
      text: [...words(document.context, locale), ...paragraphs.flat()],
      paragraphs,
    };
  });

  return {
    search(query) {
      const wanted = terms(cutQuery(query), locale).map(alternativesOf);
      if (wanted.length === 0) return [];
      const everyTerm = wanted.flat().map((alternative) => alternative.term);
      const hits: SearchHit[] = [];
      for (const entry of indexed) {
        let score = 0;
        for (const alternatives of wanted) {
          let points = 0;
          for (const { term, synonym } of alternatives) {
            const found = Math.max(
              titlePoints[bestMatch(term, entry.title)],
              textPoints[bestMatch(term, entry.text)],
            );
            points = Math.max(points, synonym && found > 0 ? Math.max(1, found - 1) : found);
          }
          if (points === 0) {
            score = 0;
            break;
          }
          score += points;
        }
        if (score === 0) continue;
        const { body } = entry.document;
        const at = Math.max(
          0,
          entry.paragraphs.findIndex((placed) => everyTerm.some((term) => bestMatch(term, placed) > 0)),
        );
        hits.push({
          document: entry.document,
          score,
          snippet: body[at] === undefined ? [] : snippet(body[at], entry.paragraphs[at] ?? [], everyTerm),
        });
      }
      // Array.prototype.sort is stable: equal scores keep the documents' order.
      return hits.sort((a, b) => b.score - a.score);
    },
  };
}
