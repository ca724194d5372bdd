import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "lazy-load",
  kind: "behaviour",
  whenToUse:
    'For images below the first screen that need not load with the page: product cards after the first row, cross-sell tips, anything further down a page. Images in the first screen load at once (a plain <img>, the largest one with fetchpriority="high"). A carousel\'s slides after the first use this partial with loader "carousel".',
  partial: {
    name: "lazy-load",
    key: "image",
    params: z.strictObject({
      src: z.string().min(1).describe("The image's address"),
      srcset: z.string().optional().describe("Other widths of it, as in <img srcset>"),
      sizes: z.string().optional().describe("As in <img sizes>, with srcset"),
      alt: z.string().describe('What the image shows, for screen readers; "" for a decorative image'),
      width: z.number().int().positive().describe("Its width in pixels, so the page keeps its space"),
      height: z.number().int().positive().describe("Its height in pixels"),
      class: z.string().optional().describe("Extra classes for both the image and its <noscript> copy"),
      loader: z
        .enum(["viewport", "carousel"])
        .optional()
        .describe(
          '"viewport" (the default): loads within 250 px of the viewport; "carousel": a slide after the first, which the carousel island loads within 150 px of its visible part (data-carousel-src)',
        ),
    }),
  },
  attributes: z.object({
    "data-lazy-src": z.string().optional().describe("The image's address, set as src once it comes near"),
    "data-lazy-srcset": z.string().optional().describe("Its srcset, set together with data-lazy-src"),
    "data-lazy-sizes": z.string().optional().describe("Its sizes, set together with data-lazy-srcset"),
    "data-lazy-background": z
      .string()
      .optional()
      .describe("An element's background image, set once it comes near"),
  }),
});
