import type { Product, ProductSize } from "../../server/domain/catalogue.ts";
import { orientations } from "../../server/domain/catalogue.ts";
import { defineHook, z } from "../runtime/define-hook.ts";

const given = <T>() => z.custom<T>((value) => value !== undefined && value !== null);
const queryNames = z.object({ orientation: z.string(), size: z.string() });

const propsSchema = z.object({
  productId: z.string().describe("The product, for the selection the 360 viewer follows"),
  path: z.string().describe("The product's address without the option, in the page's language"),
  query: queryNames.describe("The option's query parameter names in the page's language"),
  alternates: z
    .array(
      z.object({
        locale: z.string(),
        path: z.string(),
        query: queryNames,
        slugs: z.record(z.string(), z.string()),
      }),
    )
    .describe("The product's address in every language, for the language links"),
  orientations: z.array(
    z.object({ id: z.enum(orientations), slug: z.string(), label: z.string(), frontId: z.string() }),
  ),
  sizes: z
    .array(
      z.object({
        id: z.string(),
        orientation: z.enum(orientations),
        priceCents: z.number(),
        available: z.boolean(),
        label: z.string(),
        price: z.string().describe("The unit price, formatted"),
        choice: z.string().describe('The option in words, "Staand, 21x30 cm" (for the add-to-cart bar)'),
        title: z.string().describe("The page title for this option, without the site's name"),
      }),
    )
    .describe("Every size of every orientation"),
  recommended: z.object({ orientation: z.enum(orientations), size: z.string() }),
  texts: z.object({
    recommended: z.string(),
    unavailableShort: z.string(),
    available: z.string(),
    unavailable: z.string(),
  }),
});

export type ProductOptionsProps = z.infer<typeof propsSchema>;

export const contract = defineHook({
  hook: "product-options",
  kind: "island",
  whenToUse:
    "A product's orientation and size with its price, production times and add-to-cart form: once per product page. Every combination has its own address; the island switches between them in place.",
  partial: {
    name: "product-options",
    key: "options",
    // The product page's data as a whole: the same object renders the add-to-cart region on its own after a post.
    params: z
      .object({
        product: given<Product>().describe("(Product) The product"),
        choice: given<ProductSize>().describe("(ProductSize) The option shown"),
        optionsProps: given<ProductOptionsProps>().describe(
          "(object) The island's props: optionsProps in server/routes/product.ts",
        ),
        orientations: z.array(z.object({ value: z.string(), label: z.string(), selected: z.boolean() })),
        sizes: z.array(
          z.object({ value: z.string(), label: z.string(), selected: z.boolean() }).passthrough(),
        ),
        queryNames: queryNames.describe("The option's query parameter names"),
        productPath: z.string().describe("The options form's action: the product's address"),
        unitCents: z.number().describe("The option's unit price"),
        offerId: z
          .string()
          .describe("The price block's id: the page's first paint waits for it (firstPaintNeeds)"),
        standardDays: z.string().describe("The standard production time, in words"),
        rushDays: z.string().optional().describe("The rush production time, where there is one"),
        addToCart: z
          .object({})
          .passthrough()
          .describe("(object) The add-to-cart form's state (partials/add-to-cart)"),
      })
      .passthrough()
      .describe("(ProductPageData) renderer.pageData() in server/routes/product.ts"),
  },
  props: propsSchema,
  parts: {
    "select[data-product-orientation]": { required: true, description: "The orientation select" },
    "select[data-product-size]": { required: true, description: "The size select, refilled per orientation" },
    "[data-product-price]": { required: false, description: "The price, kept current" },
    "[data-product-availability]": { required: false, description: "Whether the option can be ordered" },
    "[data-product-field]": {
      required: false,
      description:
        'Hidden fields ("orientation" or "size") that follow the choice: add to cart, start the editor',
    },
    "[data-product-submit]": {
      required: false,
      description: "Buttons disabled while the option cannot be ordered",
    },
  },
});
