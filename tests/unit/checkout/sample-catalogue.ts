import { type Catalogue, parseCatalogue } from "../../../server/domain/catalogue.ts";

/** A small catalogue for checkout logic: a few products per category, one with free shipping, some not orderable. */
export function sampleCatalogue(): Catalogue {
  const product = (
    id: string,
    category: string,
    options: {
      freeShipping?: boolean;
      standard?: [number, number];
      price?: number;
      available?: boolean;
      soldOut?: boolean;
    } = {},
  ) => ({
    id,
    category,
    slug: { nl: id, de: `${id}-de` },
    name: { nl: `${id} nl`, de: `${id} de` },
    summary: { nl: "x", de: "x" },
    image: `/static/images/${id}.svg`,
    fronts: { landscape: `${id}-front` },
    model: { shape: "book", colour: "#123456" },
    freeShipping: options.freeShipping ?? false,
    production: { standard: { min: options.standard?.[0] ?? 1, max: options.standard?.[1] ?? 2 } },
    sizes: [
      {
        id: "30x20",
        orientation: "landscape",
        priceCents: options.price ?? 1000,
        available: options.available ?? true,
      },
      {
        id: "45x30",
        orientation: "landscape",
        priceCents: (options.price ?? 1000) * 2,
        available: !options.soldOut,
      },
    ],
    safety: { model: `FH-${id.toUpperCase()}` },
    recommended: { orientation: "landscape", size: "30x20", reason: { nl: "x", de: "x" } },
  });
  const category = (id: string) => ({
    id,
    slug: { nl: id, de: `${id}-de` },
    name: { nl: id, de: id },
    intro: { nl: "x", de: "x" },
  });
  return parseCatalogue({
    categories: [category("books"), category("prints"), category("wall")],
    products: [
      product("book-a", "books", { freeShipping: true, standard: [3, 5], price: 4999 }),
      product("book-b", "books", { standard: [4, 6] }),
      product("print-a", "prints", { price: 25 }),
      product("print-b", "prints", { available: false }),
      product("wall-a", "wall"),
      product("wall-b", "wall"),
      product("wall-sold-out", "wall", { available: false, soldOut: true }),
    ],
  });
}
