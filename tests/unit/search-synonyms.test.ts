import { describe, expect, it } from "vitest";
import { loadSearchSynonyms, parseSearchSynonyms } from "../../server/domain/search-synonyms.ts";

describe("the editors' search synonyms", () => {
  it("are groups of at least two words in each language", () => {
    const synonyms = loadSearchSynonyms();
    for (const locale of ["nl", "de"] as const) {
      expect(synonyms[locale].length).toBeGreaterThan(0);
      for (const group of synonyms[locale]) expect(group.length).toBeGreaterThanOrEqual(2);
    }
  });

  it("stop the start with the place of a mistake in the file", () => {
    expect(() => parseSearchSynonyms({ nl: [["ruilen"]], de: [] })).toThrow(
      "content/search-synonyms.json: nl.0: a group needs at least two words",
    );
    expect(() => parseSearchSynonyms({ nl: [] })).toThrow(/content\/search-synonyms\.json: de: /);
    expect(() => parseSearchSynonyms({ nl: [["ruilen", "x"]], de: [] })).toThrow(/nl\.0\.1: /);
  });
});
