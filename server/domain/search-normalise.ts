import type { Locale } from "../i18n/locales.ts";

/**
 * How the support search compares a shopper's words with the shop's texts, in one rule
 * that can be explained to an editor:
 *
 * 1. Both sides are folded: lower case, accents dropped (é → e, ë → e, ä → a), ß → ss,
 *    apostrophes dropped (foto's → fotos). German also writes ae/oe/ue for ä/ö/ü, so on
 *    German pages those become a/o/u as well ("Fotobuecher" = "Fotobücher").
 * 2. Each word the shopper types loses one common plural or inflection ending (Dutch
 *    -tjes, -jes, -en, -s, -e; German -ern, -en, -er, -e, -n, -s), as long as three
 *    letters stay: "levertijden" → "levertijd", "Fotobücher" → "fotobuch".
 * 3. That stem matches a word of the text when the word contains it: so a plural, a
 *    singular and a compound are found alike ("boek" finds "fotoboek", "levertijd" finds
 *    "levertijdenoverzicht"). A stem of one or two letters only matches the start of a word.
 *
 * Nothing here knows about pages or the FAQ: it is pure, and unit-tested on its own.
 */

/** Longest first: the first ending that leaves a long enough stem is the one taken off. */
const endings: Record<Locale, readonly string[]> = {
  nl: ["tjes", "jes", "en", "s", "e"],
  de: ["ern", "en", "er", "e", "n", "s"],
};

/** A stem keeps at least this many letters; shorter words are left as typed. */
const minStem = 3;

/**
 * Little words that say nothing about what a shopper looks for ("hoe bestel ik", "wie
 * bestelle ich"): left out of a query that has other words, since every term must match.
 */
const stopWords: Record<Locale, ReadonlySet<string>> = {
  nl: new Set(
    "de het een en of ik je jij u we wij mijn jouw uw is zijn ben wat hoe wie waar wanneer kan mag moet wil van voor met op in aan om te bij".split(
      " ",
    ),
  ),
  de: new Set(
    "der die das den dem des ein eine einen einem einer und oder ich du sie wir mein meine ihr ihre ist sind bin was wie wer wo wann kann darf muss will von fur mit auf in an um zu bei".split(
      " ",
    ),
  ),
};

/** A word with the apostrophes and hyphens inside it: "foto's", "Retro-Look", "e-mail". */
const wordPattern = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Lower case, no accents, ß as ss; on German pages ae/oe/ue as a/o/u. */
export function fold(text: string, locale: Locale): string {
  const plain = text
    .toLowerCase()
    .replaceAll("ß", "ss")
    .normalize("NFD")
    .replace(/\p{M}+/gu, "");
  return locale === "de" ? plain.replace(/([aou])e/g, "$1") : plain;
}

/** A word as it is compared: folded, apostrophes dropped; a hyphenated word also as its parts. */
function forms(word: string, locale: Locale): string[] {
  const folded = fold(word, locale).replace(/['’]/g, "");
  if (!folded.includes("-")) return [folded];
  return [folded.replaceAll("-", ""), ...folded.split("-")];
}

export interface Word {
  /** Where the word starts and ends in the text it came from. */
  start: number;
  end: number;
  /** What the word is compared as (more than one for a hyphenated word). */
  forms: string[];
}

/** The words of a text with their places, for matching and for marking them in a snippet. */
export function words(text: string, locale: Locale): Word[] {
  return [...text.matchAll(wordPattern)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    forms: forms(m[0], locale),
  }));
}

/** A folded word without its plural or inflection ending: "fotoboeken" → "fotoboek". */
export function stem(folded: string, locale: Locale): string {
  for (const ending of endings[locale]) {
    if (folded.endsWith(ending) && folded.length - ending.length >= minStem) {
      return folded.slice(0, -ending.length);
    }
  }
  return folded;
}

export interface Term {
  /** The folded word as typed: a word that starts with it is a closer hit than one that only contains the stem. */
  word: string;
  stem: string;
}

/**
 * The terms of a query: its words folded and stemmed, each once. Little words are left
 * out unless nothing else is left; a single letter is no term.
 */
export function terms(query: string, locale: Locale): Term[] {
  const seen = new Set<string>();
  const all: Term[] = [];
  for (const word of words(query, locale)) {
    const folded = word.forms[0] ?? "";
    if (folded.length < 2 || seen.has(folded)) continue;
    seen.add(folded);
    all.push({ word: folded, stem: stem(folded, locale) });
  }
  const meaningful = all.filter((term) => !stopWords[locale].has(term.word));
  return meaningful.length > 0 ? meaningful : all;
}

/** How well a term matches one word: 0 no match, 1 the stem inside it, 2 the word starts with it. */
export function matchStrength(term: Term, form: string): 0 | 1 | 2 {
  if (form.startsWith(term.word) || form.startsWith(term.stem)) return 2;
  if (term.stem.length >= minStem && form.includes(term.stem)) return 1;
  return 0;
}

/** The best match of a term among a text's words. */
export function bestMatch(term: Term, textWords: readonly Word[]): 0 | 1 | 2 {
  let best: 0 | 1 | 2 = 0;
  for (const word of textWords) {
    for (const form of word.forms) {
      const strength = matchStrength(term, form);
      if (strength > best) best = strength;
      if (best === 2) return best;
    }
  }
  return best;
}
