import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "lazy-load",
  kind: "behaviour",
  whenToUse:
    "For images below the first screen that need not load with the page. Images in the first screen load at once (a plain <img>); a carousel defers its own slides.",
  partial: {
    name: "lazy-load",
    key: "image",
    params: z.strictObject({
      src: z.string().min(1).describe("The image's address"),
      alt: z.string().describe('What the image shows, for screen readers; "" for a decorative image'),
      width: z.number().int().positive().describe("Its width in pixels, so the page keeps its space"),
      height: z.number().int().positive().describe("Its height in pixels"),
      class: z.string().optional().describe("Extra classes for both the image and its <noscript> copy"),
    }),
  },
  attributes: z.object({
    "data-lazy-src": z.string().optional().describe("The image's address, set as src once it comes near"),
    "data-lazy-srcset": z.string().optional().describe("Its srcset, set together with data-lazy-src"),
    "data-lazy-background": z
      .string()
      .optional()
      .describe("An element's background image, set once it comes near"),
  }),
});
