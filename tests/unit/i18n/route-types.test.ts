import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  generatedFile,
  readReferenceMessages,
  renderRouteTypes,
  routeParamNamesOf,
} from "../../../scripts/generate-route-types.ts";
import { paths } from "../../../server/app.ts";
import { loadMessages } from "../../../server/i18n/index.ts";
import { buildRouteTable, isRouteId } from "../../../server/i18n/routes.ts";

const messages = loadMessages(paths.locales);
const table = buildRouteTable(messages);

/** Param names as a set: a translation may put them in another order, pathFor fills them by name. */
function byId(names: Map<string, string[]>): Record<string, string[]> {
  return Object.fromEntries([...names].map(([id, params]) => [id, [...params].sort()]));
}

describe("the generated route types", () => {
  it("are up to date with locales/nl.json", () => {
    const written = readFileSync(generatedFile, "utf8");
    expect(
      written === renderRouteTypes(readReferenceMessages()),
      "server/i18n/route-ids.generated.ts is stale: run `npm run routes:types`",
    ).toBe(true);
  });

  it("fit de too: the same route ids, each with the same parameters", () => {
    const nl = byId(routeParamNamesOf(messages.nl, "locales/nl.json"));
    const de = byId(routeParamNamesOf(messages.de, "locales/de.json"));
    expect(de).toEqual(nl);
  });

  it("know exactly the table's route ids", () => {
    for (const id of table.ids) expect(isRouteId(id), id).toBe(true);
    expect(isRouteId("bestaatNiet")).toBe(false);
    expect(isRouteId("toString")).toBe(false);
  });

  // Every @ts-expect-error below is also a compile-time test: should pathFor accept the call,
  // `npm run typecheck` fails on the unused directive. At run time the same calls still throw.
  it("make pathFor refuse an unknown id or a missing parameter", () => {
    expect(table.pathFor("product", "nl", { category: "fotoboeken", product: "a4" })).toBe(
      "/assortiment/fotoboeken/a4",
    );
    expect(table.pathFor("home", "de")).toBe("/de");

    // @ts-expect-error: no such route
    expect(() => table.pathFor("bestaatNiet", "nl")).toThrow(/unknown route id/);
    // @ts-expect-error: product is missing
    expect(() => table.pathFor("product", "nl", { category: "x" })).toThrow(/needs parameter "product"/);
    // @ts-expect-error: the route has parameters, none given
    expect(() => table.pathFor("faqTopic", "nl")).toThrow(/needs parameter "topic"/);
    // @ts-expect-error: home has no parameters to give
    expect(table.pathFor("home", "nl", { category: "x" })).toBe("/");
    // @ts-expect-error: not a parameter of this route
    expect(table.pathFor("faqTopic", "nl", { topic: "bestellen", question: "x" })).toBe(
      "/klantenservice/faq/bestellen",
    );
  });
});
