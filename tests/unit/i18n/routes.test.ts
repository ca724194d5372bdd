import { describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { loadMessages } from "../../../server/i18n/index.ts";
import { buildRouteTable } from "../../../server/i18n/routes.ts";

const table = buildRouteTable(loadMessages(paths.locales));

describe("the route table", () => {
  it("gives the spec's exact cart path pairs", () => {
    expect(table.pathFor("cartOverview", "nl")).toBe("/winkelwagen/overzicht");
    expect(table.pathFor("cartOverview", "de")).toBe("/einkaufswagen/uebersicht");
    expect(table.pathFor("cartAddress", "nl")).toBe("/winkelwagen/adres");
    expect(table.pathFor("cartAddress", "de")).toBe("/einkaufswagen/adresse");
    expect(table.pathFor("cartContents", "nl")).toBe("/winkelwagen/inhoud");
    expect(table.pathFor("cartContents", "de")).toBe("/einkaufswagen/inhalt");
  });

  it("gives each locale its own home page", () => {
    expect(table.pathFor("home", "nl")).toBe("/");
    expect(table.pathFor("home", "de")).toBe("/de");
  });

  it("tells which locale a path belongs to by its first segment", () => {
    expect(table.localeOfPath("/einkaufswagen/nicht-da")).toBe("de");
    expect(table.localeOfPath("/winkelwagen/weg")).toBe("nl");
    expect(table.localeOfPath("/de/irgendwas")).toBe("de");
    expect(table.localeOfPath("/iets-anders")).toBeUndefined();
  });

  it("fills in and encodes route parameters, and refuses to build a link without them", () => {
    const withParams = buildRouteTable({
      nl: { routes: { home: "/", product: "/product/:slug" } },
      de: { routes: { home: "/de", product: "/produkt/:slug" } },
    });
    // Made-up routes, outside the generated types: only the run-time checks apply.
    expect(withParams.pathForUntyped("product", "de", { slug: "fotobuch a4" })).toBe(
      "/produkt/fotobuch%20a4",
    );
    expect(() => withParams.pathForUntyped("product", "nl")).toThrow(/needs parameter "slug"/);
    expect(() => withParams.pathForUntyped("nope", "nl")).toThrow(/unknown route id/);
  });

  it("refuses a path that two locales or two routes share", () => {
    expect(() =>
      buildRouteTable({ nl: { routes: { home: "/", a: "/x" } }, de: { routes: { home: "/de", a: "/x" } } }),
    ).toThrow(/path \/x is used by both/);
  });

  it("refuses locale files whose route ids differ", () => {
    expect(() =>
      buildRouteTable({ nl: { routes: { home: "/", a: "/a" } }, de: { routes: { home: "/de" } } }),
    ).toThrow(/route ids differ/);
  });
});
