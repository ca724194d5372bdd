import type { Product } from "../../server/domain/catalogue.ts";
import { defineHook, z } from "../runtime/define-hook.ts";

const imageSlide = z.strictObject({
  kind: z.literal("image"),
  src: z.string().min(1).describe("The image's address"),
  srcset: z.string().optional().describe("Other widths of it, as in <img srcset>"),
  sizes: z.string().optional().describe("As in <img sizes>, with srcset"),
  alt: z.string().describe('What the photo shows; "" only for a decorative one'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

const productSlide = z.strictObject({
  kind: z.literal("product"),
  card: z
    .object({ product: z.custom<Product>((value) => typeof value === "object" && value !== null) })
    .passthrough()
    .describe(
      "(ProductCard) A product card's data: { product, fromPriceCents, eager, add? } (partials/product-card)",
    ),
});

const propsSchema = z.object({
  autoplayMs: z
    .number()
    .positive()
    .optional()
    .describe("Turns on its own at this interval; still when absent"),
  texts: z
    .object({
      previous: z.string(),
      next: z.string(),
      slide: z.string().describe('"{n} van {count}": the name of each slide'),
      dot: z.string().describe('"Dia {n} van {count}": the name of each page dot'),
      pause: z.string(),
      play: z.string(),
      roleCarousel: z.string(),
      roleSlide: z.string(),
    })
    .describe("The carousel's words (locales: carousel)"),
});

export type CarouselProps = z.infer<typeof propsSchema>;
export type CarouselTexts = CarouselProps["texts"];

export const contract = defineHook({
  hook: "carousel",
  kind: "island",
  whenToUse:
    "A row of photos or product cards that does not fit the width: previous and next buttons, dots, arrow keys and dragging. Autoplay only for photos that are a bonus, never for something to read or click.",
  partial: {
    name: "carousel",
    key: "carousel",
    params: z.strictObject({
      id: z
        .string()
        .min(1)
        .describe("The section's id, unique on the page; Back and Forward bring back its slide under it"),
      label: z.string().min(1).describe("Its accessible name: what the slides are"),
      autoplay: z.boolean().default(false).describe("Turns on its own every 3 seconds, with a pause button"),
      slides: z
        .array(z.discriminatedUnion("kind", [imageSlide, productSlide]))
        .min(1)
        .describe(
          'The slides: { kind: "image", src, srcset?, sizes?, alt, width, height } or { kind: "product", card }',
        ),
    }),
  },
  props: propsSchema,
  parts: {
    ".carousel__frame > .carousel__slides": {
      required: true,
      description: "The list of slides, one li each",
    },
    "img[data-carousel-src]": {
      required: false,
      description:
        "A slide's image that loads once it comes within 150 px (data-carousel-srcset and data-carousel-sizes with it)",
    },
  },
});
