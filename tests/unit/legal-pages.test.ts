import { describe, expect, it } from "vitest";
import type { Catalogue } from "../../server/domain/catalogue.ts";
import {
  headingId,
  type LegalPageOptions,
  markdownText,
  renderLegalPage,
} from "../../server/domain/legal-pages.ts";
import { parseWithdrawalRights } from "../../server/domain/withdrawal-rights.ts";

const options: LegalPageOptions = {
  values: () => ({
    "company.name": markdownText("Foto_hoek *B.V.*"),
    "shipping.costs": "| a | b |\n| --- | --- |\n| 1 | 2 |",
  }),
  routePath: (id, locale) =>
    id === "terms" ? (locale === "nl" ? "/algemene-voorwaarden" : "/agb") : undefined,
};
const render = (source: string) => renderLegalPage(source, "content/legal/nl/x.md", "nl", options);

describe("a legal page's Markdown", () => {
  it("takes its title from the first line and its description from the first paragraph", () => {
    const page = render(
      "# Algemene voorwaarden\n\nDeze voorwaarden gelden voor elke bestelling.\n\n## Eén\n\nTekst.",
    );
    expect(page.title).toBe("Algemene voorwaarden");
    expect(page.description).toBe("Deze voorwaarden gelden voor elke bestelling.");
    expect(page.html).toContain('<h2 id="een">Eén</h2>');
  });

  it("shows HTML an editor typed as text, never as markup", () => {
    const page = render('# T\n\n<script>alert(1)</script> <img src=x onerror="alert(1)"> <b>vet</b>');
    expect(page.html).not.toContain("<script");
    expect(page.html).not.toContain("<img");
    expect(page.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("refuses a javascript: or data: link, naming the file and line", () => {
    expect(() => render("# T\n\nTekst\n\n[klik](javascript:alert(1))")).toThrow(
      /content\/legal\/nl\/x\.md:5: link target "javascript:alert\(1\)"/,
    );
    expect(() => render("# T\n\n[x](data:text/html,hi)")).toThrow(/link target/);
  });

  it("links route:<id> to the route's path in the page's language, and refuses an unknown route", () => {
    expect(render("# T\n\n[de voorwaarden](route:terms)").html).toContain(
      '<a href="/algemene-voorwaarden">de voorwaarden</a>',
    );
    expect(() => render("# T\n\n[x](route:nope)")).toThrow(/x\.md:3: no route "nope"/);
  });

  it("reads as plain text in a mail: no Markdown marks or escapes, each link's address after its words", () => {
    const page = render(
      [
        "# Voorwaarden",
        "Verkoper: {company.name}, [mail ons](mailto:hulp@shop.test) of [hulp@shop.test](mailto:hulp@shop.test).",
        "## Artikel 1",
        "Zie **de** [voorwaarden](route:terms#artikel-2) en [hierboven](#artikel-1).\nTweede regel.",
        "1. Eerst\n2. Dan",
        "- Een\n- Twee",
        "{shipping.costs}",
      ].join("\n\n"),
    );
    expect(page.mailText("https://shop.test")).toBe(
      [
        "Voorwaarden",
        "",
        "Verkoper: Foto_hoek *B.V.*, mail ons (hulp@shop.test) of hulp@shop.test.",
        "",
        "Artikel 1",
        "",
        "Zie de voorwaarden (https://shop.test/algemene-voorwaarden#artikel-2) en hierboven.\nTweede regel.",
        "",
        "1. Eerst\n2. Dan",
        "",
        "- Een\n- Twee",
        "",
        "a | b\n1 | 2",
      ].join("\n"),
    );
    expect(page.text).toEqual([
      "Verkoper: Foto_hoek *B.V.*, mail ons of hulp@shop.test.",
      "Artikel 1",
      "Zie de voorwaarden en hierboven. Tweede regel.",
      "Eerst",
      "Dan",
      "Een",
      "Twee",
      "a",
      "b",
      "1",
      "2",
    ]);
  });

  it("fills placeholders with the shop's facts, escaped, and names an unknown one with its line", () => {
    const page = render("# T\n\nVerkoper: {company.name}\n\n{shipping.costs}");
    expect(page.html).toContain("Verkoper: Foto_hoek *B.V.*");
    expect(page.html).toContain("<td>1</td>");
    expect(() => render("# T\n\nline\n{company.nam}")).toThrow(
      /x\.md:4: unknown placeholder \{company\.nam\}/,
    );
    expect(render("# T\n\nBraces: \\{company.name}").html).toContain("Braces: {company.name}");
  });

  it("must start with one # title", () => {
    expect(() => render("Tekst\n\n# T")).toThrow(/x\.md:1: the page must start with its title/);
    expect(() => render("# T\n\n# Twee")).toThrow(/only the first line may be a "# " title/);
  });

  it("makes heading ids from their words", () => {
    expect(headingId("Muster-Widerrufsformular")).toBe("muster-widerrufsformular");
    expect(headingId("Größe & Maße")).toBe("grosse-masse");
  });
});

describe("the withdrawal rights file", () => {
  const catalogue = { products: [{ id: "poster" }, { id: "canvas" }] } as unknown as Catalogue;

  it("lists the catalogue's products with a right of withdrawal", () => {
    const rights = parseWithdrawalRights({ withdrawable: ["poster"] }, catalogue);
    expect(rights.has("poster")).toBe(true);
    expect(rights.has("canvas")).toBe(false);
    expect(parseWithdrawalRights({ withdrawable: [] }, catalogue).withdrawable).toEqual([]);
  });

  it("refuses a product the catalogue does not have", () => {
    expect(() => parseWithdrawalRights({ withdrawable: ["mug"] }, catalogue)).toThrow(/"mug" is no product/);
  });
});
