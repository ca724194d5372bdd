import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../server/config.ts";
import { loadCatalogue, type Product } from "../../../server/domain/catalogue.ts";
import {
  nearestSize,
  orientationsOf,
  parseSize,
  pricesOf,
  recommendedChoice,
  resolveOptions,
  sizesIn,
} from "../../../server/domain/product-options.ts";

const catalogue = loadCatalogue(readConfig({ COOKIE_SECRET: "x".repeat(32) }).cataloguePath);
const book = catalogue.product("exclusive-photobook") as Product;
const squareBook = catalogue.product("square-photobook") as Product;

describe("resolveOptions", () => {
  it("shows the recommended option when the address names none", () => {
    const result = resolveOptions(book, {});
    expect(result).toEqual({ kind: "show", choice: recommendedChoice(book), recommended: true });
    expect(result.choice).toMatchObject({ orientation: "landscape", id: "30x21" });
  });

  it("shows exactly the combination the address names when it is offered", () => {
    const result = resolveOptions(book, { orientation: "portrait", size: "21x30" });
    expect(result.kind).toBe("show");
    expect(result.choice).toMatchObject({ orientation: "portrait", id: "21x30" });
    expect(result).toMatchObject({ recommended: false });
  });

  it("redirects a combination that does not exist to the same size turned a quarter", () => {
    // A shopper without JavaScript switches landscape 30x21 to portrait and presses "show".
    const result = resolveOptions(book, { orientation: "portrait", size: "30x21" });
    expect(result).toMatchObject({ kind: "redirect", choice: { orientation: "portrait", id: "21x30" } });
  });

  it("redirects to the nearest size by area when no turned size exists", () => {
    const result = resolveOptions(book, { orientation: "square", size: "40x30" });
    expect(result).toMatchObject({ kind: "redirect", choice: { orientation: "square", id: "30x30" } });
  });

  it("redirects an orientation on its own to that orientation's best size", () => {
    expect(resolveOptions(book, { orientation: "landscape" })).toMatchObject({
      kind: "redirect",
      choice: { orientation: "landscape", id: "30x21" },
    });
    expect(resolveOptions(book, { orientation: "portrait" })).toMatchObject({
      kind: "redirect",
      choice: { orientation: "portrait", id: "21x30" },
    });
  });

  it("redirects a size on its own to the orientation that offers it", () => {
    expect(resolveOptions(book, { size: "21x30" })).toMatchObject({
      kind: "redirect",
      choice: { orientation: "portrait", id: "21x30" },
    });
  });

  it("redirects an orientation the product lacks to its nearest offered option", () => {
    expect(resolveOptions(squareBook, { orientation: "landscape", size: "20x20" })).toMatchObject({
      kind: "redirect",
      choice: { orientation: "square", id: "20x20" },
    });
  });

  it("falls back to the recommended option with a notice for unknown or malformed values", () => {
    for (const request of [
      { orientation: "invalid" as const },
      { size: "99x99" },
      { size: "30x21'; drop table" },
      { orientation: "portrait" as const, size: "?" },
      { size: "" },
    ]) {
      expect(resolveOptions(book, request)).toEqual({ kind: "notice", choice: recommendedChoice(book) });
    }
  });

  it("always lands on an offered combination, whatever the address says", () => {
    const orientation = fc.constantFrom(undefined, "portrait", "landscape", "square", "invalid" as const);
    const size = fc.option(fc.oneof(fc.constantFrom(...book.sizes.map((s) => s.id)), fc.string()), {
      nil: undefined,
    });
    fc.assert(
      fc.property(fc.constantFrom(...catalogue.products), orientation, size, (product, o, s) => {
        const result = resolveOptions(product, { orientation: o, size: s });
        expect(product.sizes).toContain(result.choice);
        if (result.kind === "redirect") {
          // A redirect must never lead to another redirect.
          const again = resolveOptions(product, {
            orientation: result.choice.orientation,
            size: result.choice.id,
          });
          expect(again.kind).toBe("show");
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("nearestSize", () => {
  it("prefers the same measurements, then the turned ones", () => {
    expect(nearestSize(book, "landscape", "40x30").id).toBe("40x30");
    expect(nearestSize(book, "portrait", "30x21").id).toBe("21x30");
  });

  it("uses the recommended size when nothing usable is wished", () => {
    expect(nearestSize(book, "landscape", undefined).id).toBe("30x21");
    expect(nearestSize(book, "landscape", "not-a-size").id).toBe("30x21");
  });
});

describe("option lists", () => {
  it("offers each orientation once, in catalogue order", () => {
    expect(orientationsOf(book)).toEqual(["landscape", "portrait", "square"]);
  });

  it("offers only the sizes of one orientation", () => {
    expect(sizesIn(book, "landscape").map((s) => s.id)).toEqual(["30x21", "40x30"]);
  });

  it("reads sizes as width x height", () => {
    expect(parseSize("30x21")).toEqual({ width: 30, height: 21 });
    expect(parseSize("0x21")).toBeUndefined();
    expect(parseSize("30×21")).toBeUndefined();
  });
});

describe("pricesOf", () => {
  it("adds the rush surcharge where rush production is offered", () => {
    const choice = recommendedChoice(book);
    expect(pricesOf(book, choice)).toEqual({ unitCents: 4999, rushCents: 4999 + 995 });
  });

  it("has no rush price where rush is not offered", () => {
    expect(pricesOf(squareBook, recommendedChoice(squareBook))).toEqual({
      unitCents: recommendedChoice(squareBook).priceCents,
    });
  });
});
