import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { type Locale, locales } from "../i18n/locales.ts";

/**
 * Words that mean the same to a shopper, per language (content/search-synonyms.json, the
 * editors'): a search word that is one of a group's also finds the pages that use another
 * ("Retoure" finds the page that says "Rücksendung"). Checked whole at start-up, so that a
 * typo stops the shop with its place in the file instead of a search that quietly finds less.
 */
export type SearchSynonyms = Readonly<Record<Locale, readonly (readonly string[])[]>>;

const group = z.array(z.string().trim().min(2)).min(2, "a group needs at least two words");
const schema = z.object(
  Object.fromEntries(locales.map((locale) => [locale, z.array(group)])) as Record<
    Locale,
    z.ZodArray<typeof group>
  >,
);

export const searchSynonymsPath = resolve(
  dirname(new URL(import.meta.url).pathname),
  "../../content/search-synonyms.json",
);

export function parseSearchSynonyms(json: unknown, where = "content/search-synonyms.json"): SearchSynonyms {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${where}: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
  }
  return parsed.data;
}

export function loadSearchSynonyms(path: string = searchSynonymsPath): SearchSynonyms {
  return parseSearchSynonyms(JSON.parse(readFileSync(path, "utf8")));
}
