import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../server/config.ts";
import { loadCatalogue } from "../../server/domain/catalogue.ts";
import { loadFaq } from "../../server/domain/faq.ts";
import {
  createSearchIndex,
  cutQuery,
  maxQueryLength,
  type SearchDocument,
  type SnippetPart,
} from "../../server/domain/search.ts";
import { searchDocuments } from "../../server/domain/search-documents.ts";

const doc = (id: string, title: string, body: string[] = [], context = ""): SearchDocument => ({
  kind: "faq",
  id,
  title,
  href: `/${id}`,
  context,
  body,
});

/** A snippet as plain text with its marked words in [brackets]. */
const marked = (parts: SnippetPart[]) => parts.map((p) => (p.hit ? `[${p.text}]` : p.text)).join("");

describe("ranking", () => {
  const index = createSearchIndex(
    [
      doc("body-only", "Wanneer is mijn bestelling in huis?", ["Je boek komt binnen een week."]),
      doc("title-compound", "Vierkant fotoboek"),
      doc("title", "Boeken met een harde kaft"),
      doc("other", "Betalen", ["Betalen met iDEAL of creditcard."]),
    ],
    "nl",
  );

  it("puts title hits above text hits, and a word that starts with the term above a compound's part", () => {
    expect(index.search("boek").map((hit) => hit.document.id)).toEqual([
      "title",
      "title-compound",
      "body-only",
    ]);
  });

  it("requires every term (AND)", () => {
    expect(index.search("boek week").map((hit) => hit.document.id)).toEqual(["body-only"]);
    expect(index.search("boek ideal")).toEqual([]);
  });

  it("keeps the documents' own order when scores are equal", () => {
    const same = createSearchIndex(
      [doc("a", "Fotoboek A"), doc("b", "Fotoboek B"), doc("c", "Fotoboek C")],
      "nl",
    );
    expect(same.search("fotoboek").map((hit) => hit.document.id)).toEqual(["a", "b", "c"]);
  });

  it("finds nothing for an empty query or one without a term", () => {
    expect(index.search("")).toEqual([]);
    expect(index.search("  ?! ")).toEqual([]);
  });

  it("searches the context (topic or category) as text too", () => {
    const withTopic = createSearchIndex([doc("q", "Hoe kan ik betalen?", ["Met iDEAL."], "Betalen")], "nl");
    expect(withTopic.search("ideal betalen").map((hit) => hit.document.id)).toEqual(["q"]);
  });
});

describe("snippets", () => {
  it("show a short text whole, with the matching words marked", () => {
    const index = createSearchIndex([doc("a", "Levering", ["Bekijk de levertijden per product."])], "nl");
    expect(marked(index.search("levertijd")[0]?.snippet ?? [])).toBe("Bekijk de [levertijden] per product.");
  });

  it("take the paragraph with the first hit, and cut a long one around it", () => {
    const long = `${"Eerst komt een lange inleiding over iets heel anders. ".repeat(4)}Daarna gaat het over spoedproductie van je boek, en dan ${"nog veel meer tekst over andere dingen. ".repeat(4)}`;
    const index = createSearchIndex([doc("a", "Vraag", ["Niets hier.", long])], "nl");
    const text = marked(index.search("spoed")[0]?.snippet ?? []);
    expect(text).toContain("[spoedproductie]");
    expect(text.startsWith("… ")).toBe(true);
    expect(text.endsWith(" …")).toBe(true);
    expect(text.length).toBeLessThan(long.length);
  });

  it("start at the paragraph's beginning when only the title matched", () => {
    const index = createSearchIndex([doc("a", "Fotoboek", ["Eerste alinea.", "Tweede alinea."])], "nl");
    expect(marked(index.search("fotoboek")[0]?.snippet ?? [])).toBe("Eerste alinea.");
  });
});

describe("the query", () => {
  it("is one string, trimmed, cut to the longest a query may be", () => {
    expect(cutQuery("  levertijd ")).toBe("levertijd");
    expect(cutQuery(["fotoboek", "kalender"])).toBe("fotoboek");
    expect(cutQuery(undefined)).toBe("");
    expect(cutQuery({ q: "x" })).toBe("");
    expect(cutQuery("a".repeat(500))).toHaveLength(maxQueryLength);
  });

  it("is never cut in the middle of a character made of two code units", () => {
    const cut = cutQuery(`${"a".repeat(maxQueryLength - 1)}📷📷`);
    expect(Array.from(cut)).toHaveLength(maxQueryLength);
    expect(cut.endsWith("📷")).toBe(true);
  });
});

describe("an information page", () => {
  const terms = {
    id: "terms",
    title: "Allgemeine Geschäftsbedingungen",
    href: "/agb",
    context: "Rechtliches",
    body: ["Diese Bedingungen gelten für jede Bestellung.", "Die Versandkosten stehen in der Übersicht."],
    aliases: ["AGB"],
  };
  const index = createSearchIndex(
    searchDocuments({
      locale: "de",
      topics: [],
      catalogue: loadCatalogue(resolve(projectRoot, "content/catalogue.json")),
      questionHref: () => "",
      productHref: () => "",
      pages: [terms],
    }).filter((d) => d.kind === "page"),
    "de",
  );

  it("is found by its text, with the paragraph that matched as its snippet", () => {
    const [hit] = index.search("versandkosten");
    expect(hit?.document).toMatchObject({ kind: "page", id: "terms", href: "/agb" });
    expect(hit?.snippet.map((part) => part.text).join("")).toBe("Die Versandkosten stehen in der Übersicht.");
  });

  it("is found by its name in the footer as by its title, which ranks above its text", () => {
    const byName = index.search("AGB");
    expect(byName.map((h) => h.document.id)).toEqual(["terms"]);
    expect(byName[0]?.score).toBe(index.search("Geschäftsbedingungen")[0]?.score);
    expect(byName[0]?.score).toBeGreaterThan(index.search("Bestellung")[0]?.score ?? 0);
  });
});

describe("words that mean the same", () => {
  const page = (id: string, text: string): SearchDocument => ({
    kind: "page",
    id,
    title: "Service",
    href: `/${id}`,
    context: "",
    body: [text],
  });
  const documents = [
    page("returns", "So geht die Rücksendung eines Produkts."),
    page("retoure", "Eine Retoure melden Sie hier."),
    page("other", "Etwas ganz anderes."),
  ];
  const index = createSearchIndex(documents, "de", [["Rücksendung", "Retoure", "Umtausch"]]);
  const ids = (query: string) => index.search(query).map((hit) => hit.document.id);

  it("find each other's pages, the word typed first, with the synonym marked in the snippet", () => {
    expect(ids("Umtausch")).toEqual(["returns", "retoure"]);
    expect(ids("Retoure")).toEqual(["retoure", "returns"]);
    const [, other] = index.search("Retoure");
    expect(other?.snippet.filter((part) => part.hit).map((part) => part.text)).toEqual(["Rücksendung"]);
  });

  it("leave a word in no group as it was, and every word of a query must still match", () => {
    expect(ids("anderes")).toEqual(["other"]);
    expect(ids("Umtausch anderes")).toEqual([]);
    expect(createSearchIndex(documents, "de").search("Umtausch")).toEqual([]);
  });
});

describe("the shop's documents", () => {
  const catalogue = loadCatalogue(resolve(projectRoot, "content/catalogue.json"));
  const faq = loadFaq(resolve(projectRoot, "content/faq"));
  const indexFor = (locale: "nl" | "de") =>
    createSearchIndex(
      searchDocuments({
        locale,
        topics: faq.topics(locale),
        catalogue,
        questionHref: (topic, question) => `/${locale}/${topic.slug}/${question}`,
        productHref: (product) => `/${locale}/product/${product.slug[locale]}`,
        pages: [],
      }),
      locale,
    );

  it("are every FAQ question and every product, with their links", () => {
    const documents = searchDocuments({
      locale: "nl",
      topics: faq.topics("nl"),
      catalogue,
      questionHref: (topic, question) => `/${topic.slug}/${question}`,
      productHref: (product) => `/p/${product.id}`,
      pages: [],
    });
    const questions = faq.topics("nl").flatMap((t) => t.questions);
    expect(documents.filter((d) => d.kind === "faq")).toHaveLength(questions.length);
    expect(documents.filter((d) => d.kind === "product")).toHaveLength(catalogue.products.length);
    expect(documents).toContainEqual(
      expect.objectContaining({
        kind: "faq",
        title: "Leveren jullie ook op feestdagen?",
        href: "/levering/feestdagen",
      }),
    );
    // Answers are searched as text: the link markup is gone.
    expect(documents.flatMap((d) => d.body).join(" ")).not.toContain("](route:");
  });

  it("find the Dutch FAQ by plural and singular, and products by a compound's part", () => {
    const nl = indexFor("nl");
    expect(nl.search("levertijd").map((h) => h.document.id)).toContain("holidays");
    const books = nl.search("fotoboeken");
    expect(books.filter((h) => h.document.kind === "product").map((h) => h.document.id)).toEqual([
      "exclusive-photobook",
      "classic-photobook",
      "square-photobook",
    ]);
    expect(nl.search("boek").map((h) => h.document.id)).toContain("square-photobook");
    expect(nl.search("fotoboek").map((h) => h.document.id)).not.toContain("wall-calendar");
  });

  it("find the German FAQ and products with or without umlauts", () => {
    const de = indexFor("de");
    const ids = (query: string) => de.search(query).map((h) => h.document.id);
    expect(ids("Fotobücher")).toEqual(ids("Fotobuecher"));
    expect(ids("Fotobücher")).toContain("classic-photobook");
    expect(ids("Fotobuch")).not.toContain("poster");
    expect(ids("Lieferzeit")).toContain("holidays");
  });
});
