import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { readConfig } from "../../../server/config.ts";
import {
  CatalogueError,
  fromPriceCents,
  loadCatalogue,
  parseCatalogue,
} from "../../../server/domain/catalogue.ts";
import { recommendedChoice } from "../../../server/domain/product-options.ts";

const file = readConfig({ COOKIE_SECRET: "x".repeat(32) }).cataloguePath;
const raw = () => JSON.parse(readFileSync(file, "utf8"));

describe("the catalogue file", () => {
  const catalogue = loadCatalogue(file);

  it("is valid and offers photo books, prints and other photo products", () => {
    expect(catalogue.categories.length).toBeGreaterThanOrEqual(3);
    expect(catalogue.productsIn("photo-books").length).toBeGreaterThan(0);
    expect(catalogue.productsIn("prints").length).toBeGreaterThan(0);
  });

  it("gives exclusive photo books the spec's production times", () => {
    const exclusive = catalogue.product("exclusive-photobook");
    expect(exclusive?.production.standard).toEqual({ min: 3, max: 5 });
    expect(exclusive?.production.rush).toMatchObject({ min: 2, max: 4 });
  });

  it("marks a recommended option that exists for every product", () => {
    for (const product of catalogue.products) {
      expect(recommendedChoice(product).orientation).toBe(product.recommended.orientation);
    }
  });

  it("points every product at an image that exists", () => {
    for (const product of catalogue.products) {
      expect(() => readFileSync(`${paths.static}/${product.image.replace("/static/", "")}`)).not.toThrow();
    }
  });
});

describe("parseCatalogue", () => {
  it("names the entry and field of a wrong price", () => {
    const data = raw();
    data.products[1].sizes[0].priceCents = 12.5;
    expect(() => parseCatalogue(data, "catalogue.json")).toThrow(
      new RegExp(`products\\[1\\] "${data.products[1].id}" > sizes\\[0\\] .*> priceCents`),
    );
  });

  it("refuses a recommended option the product does not have", () => {
    const data = raw();
    data.products[0].recommended.size = "99x99";
    expect(() => parseCatalogue(data)).toThrow(/recommended: .*99x99 is not one of its sizes/);
  });

  it("refuses a product in a category that does not exist", () => {
    const data = raw();
    data.products[0].category = "mugs";
    expect(() => parseCatalogue(data)).toThrow(CatalogueError);
  });

  it("refuses a missing German text", () => {
    const data = raw();
    delete data.products[2].name.de;
    expect(() => parseCatalogue(data)).toThrow(/products\[2\] .* > name > de/);
  });

  it("refuses the same slug twice in one language", () => {
    const data = raw();
    data.products[1].slug.nl = data.products[0].slug.nl;
    expect(() => parseCatalogue(data)).toThrow(/is used twice/);
  });

  it("explains a file that is not JSON", () => {
    expect(() => loadCatalogue(`${paths.locales}/../package.json.missing`)).toThrow(/cannot be read/);
  });
});

describe("fromPriceCents", () => {
  it("is the cheapest size", () => {
    const product = parseCatalogue(raw()).products[0];
    if (!product) throw new Error("no products");
    expect(fromPriceCents(product)).toBe(Math.min(...product.sizes.map((s) => s.priceCents)));
  });

  it("leaves out a size that cannot be ordered for now, however cheap", () => {
    const data = raw();
    const product = data.products[0];
    // A bargain nobody can buy: listed, but marked unavailable.
    product.sizes.push({
      id: "9x9",
      orientation: product.recommended.orientation,
      priceCents: 1,
      available: false,
    });
    const parsed = parseCatalogue(data).products[0];
    if (!parsed) throw new Error("no products");
    expect(fromPriceCents(parsed)).toBeGreaterThan(1);
    expect(fromPriceCents(parsed)).toBe(
      Math.min(...parsed.sizes.filter((s) => s.available).map((s) => s.priceCents)),
    );
  });
});
