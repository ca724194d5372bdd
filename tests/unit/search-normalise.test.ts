import { describe, expect, it } from "vitest";
import { bestMatch, fold, stem, terms, words } from "../../server/domain/search-normalise.ts";
import type { Locale } from "../../server/i18n/locales.ts";

/** Whether a query (every word of it) finds a text, by the search's own rule. */
function finds(query: string, text: string, locale: Locale): boolean {
  const wanted = terms(query, locale);
  const placed = words(text, locale);
  return wanted.length > 0 && wanted.every((term) => bestMatch(term, placed) > 0);
}

describe("folding", () => {
  it("ignores case and accents, and writes ß as ss", () => {
    expect(fold("Officiële Feestdagen", "nl")).toBe("officiele feestdagen");
    expect(fold("Café privé", "nl")).toBe("cafe prive");
    expect(fold("Straße", "de")).toBe("strasse");
    expect(fold("STRASSE", "de")).toBe("strasse");
  });

  it("in German takes ä/ö/ü and ae/oe/ue for the same letters as a/o/u", () => {
    expect(fold("Fotobücher", "de")).toBe("fotobucher");
    expect(fold("Fotobuecher", "de")).toBe("fotobucher");
    expect(fold("Bestätigung", "de")).toBe(fold("Bestaetigung", "de"));
    expect(fold("Größe", "de")).toBe(fold("Groesse", "de"));
  });

  it("leaves the Dutch oe and ue alone: they are letters of their own there", () => {
    expect(fold("fotoboek", "nl")).toBe("fotoboek");
    expect(fold("huren", "nl")).toBe("huren");
  });
});

describe("words", () => {
  it("drop apostrophes and take a hyphenated word whole and as its parts", () => {
    expect(words("foto's", "nl").map((w) => w.forms)).toEqual([["fotos"]]);
    expect(words("Retro-Look", "de").map((w) => w.forms)).toEqual([["retrolook", "retro", "look"]]);
  });

  it("know where they stand in the text, for marking them in a snippet", () => {
    const text = "Een luxe fotoboek.";
    expect(words(text, "nl").map((w) => text.slice(w.start, w.end))).toEqual(["Een", "luxe", "fotoboek"]);
  });
});

describe("stemming", () => {
  it("takes one Dutch plural or inflection ending off", () => {
    expect(stem("levertijden", "nl")).toBe("levertijd");
    expect(stem("fotoboeken", "nl")).toBe("fotoboek");
    expect(stem(fold("foto's", "nl").replace("'", ""), "nl")).toBe("foto");
    expect(stem("kaartjes", "nl")).toBe("kaar");
    expect(stem("boekjes", "nl")).toBe("boek");
    expect(stem("vierkante", "nl")).toBe("vierkant");
  });

  it("takes one German ending off, after the umlauts were folded", () => {
    expect(stem(fold("Fotobücher", "de"), "de")).toBe("fotobuch");
    expect(stem("bildern", "de")).toBe("bild");
    expect(stem("rechnungen", "de")).toBe("rechnung");
    expect(stem("fotos", "de")).toBe("foto");
    expect(stem("seite", "de")).toBe("seit");
  });

  it("keeps at least three letters", () => {
    expect(stem("ten", "nl")).toBe("ten");
    expect(stem("eens", "nl")).toBe("een");
    expect(stem("der", "de")).toBe("der");
  });
});

describe("query terms", () => {
  it("are folded and stemmed, each once", () => {
    expect(terms("Levertijden levertijden", "nl")).toEqual([{ word: "levertijden", stem: "levertijd" }]);
  });

  it("leave out little words when there are others, and single letters always", () => {
    expect(terms("Hoe bestel ik een fotoboek?", "nl").map((t) => t.word)).toEqual(["bestel", "fotoboek"]);
    expect(terms("Wie bestelle ich ein Fotobuch", "de").map((t) => t.word)).toEqual(["bestelle", "fotobuch"]);
    expect(terms("a 4", "nl")).toEqual([]);
    // A query of little words only is still a query.
    expect(terms("hoe", "nl").map((t) => t.word)).toEqual(["hoe"]);
  });
});

describe("matching, in Dutch", () => {
  it.each([
    ["levertijd", "Levertijden"],
    ["levertijden", "de levertijd"],
    ["fotoboeken", "Klassiek fotoboek"],
    ["fotoboek", "Onze fotoboeken"],
    ["boek", "Vierkant fotoboek"],
    ["levertijd", "het levertijdenoverzicht"],
    ["LEVERTIJD", "levertijden"],
    ["officiele", "officiële feestdagen"],
    ["foto's", "je mooiste foto"],
    ["vierkante", "Vierkant fotoboek"],
    ["fotoboek spoed", "Spoedproductie voor je fotoboek"],
  ])("%j finds %j", (query, text) => {
    expect(finds(query, text, "nl")).toBe(true);
  });

  it.each([
    ["fotoboek", "Fotokalender"],
    ["levertijd", "Betalen met iDEAL"],
    ["fotoboek betalen", "Klassiek fotoboek"],
    ["bok", "fotoboek"],
    ["canvas", "Fotoposter"],
    ["xyzzy", "Vierkante fotoafdrukken"],
  ])("%j does not find %j", (query, text) => {
    expect(finds(query, text, "nl")).toBe(false);
  });
});

describe("matching, in German", () => {
  it.each([
    ["Fotobücher", "Fotobuch"],
    ["Fotobuch", "Unsere Fotobücher"],
    ["fotobuecher", "Klassisches Fotobuch"],
    ["Fotobuchs", "Fotobuch"],
    ["Buch", "Quadratisches Fotobuch"],
    ["Lieferzeit", "Lieferzeiten"],
    ["Lieferzeiten", "die Lieferzeit"],
    ["Bestaetigung", "Bestellbestätigung"],
    ["strasse", "Straße"],
    ["Rechnungen", "eine Rechnung"],
    ["Fotobuch Express", "Expressproduktion für Ihr Fotobuch"],
  ])("%j finds %j", (query, text) => {
    expect(finds(query, text, "de")).toBe(true);
  });

  it.each([
    ["Fotobuch", "Fotoposter"],
    ["Kalender", "Foto auf Leinwand"],
    ["Fotobuch Rechnung", "Klassisches Fotobuch"],
    ["Lieferzeit", "Bezahlung"],
    ["xyzzy", "Fotokalender"],
  ])("%j does not find %j", (query, text) => {
    expect(finds(query, text, "de")).toBe(false);
  });
});

describe("short terms", () => {
  it("of two letters match only the start of a word, not its middle", () => {
    expect(finds("a4", "een A4-boek", "nl")).toBe(true);
    expect(finds("oe", "fotoboek", "nl")).toBe(false);
  });
});
