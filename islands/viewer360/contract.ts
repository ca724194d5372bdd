import { defineHook, z } from "../runtime/define-hook.ts";

const propsSchema = z.object({
  productId: z.string().min(1).describe("The product, named in the viewer's analytics (viewer360.use)"),
  frontId: z.string().min(1).describe("The front whose frames it shows (a product's fronts[orientation])"),
  alt: z.string().describe("The first frame's alt text"),
  alts: z
    .record(z.string(), z.string())
    .optional()
    .describe("Alt texts per front, for when the shopper picks another orientation; `alt` otherwise"),
  version: z.string().describe("The frames' version, part of their addresses"),
  imageHost: z.string().describe('The frames\' origin, or "" for the shop itself'),
  texts: z
    .object({
      label: z.string().describe('"360°-weergave: {product}"'),
      instructions: z.string(),
      turnLeft: z.string(),
      turnRight: z.string(),
      zoomIn: z.string(),
      zoomOut: z.string(),
      zoomReset: z.string(),
      fullscreen: z.string().describe('"Volledig scherm"'),
      exitFullscreen: z.string().describe('"Volledig scherm sluiten"'),
      loading: z.string().describe("The progress bar's name"),
      progress: z.string().describe('"Beelden laden: {percent}%"'),
      frame: z.string().describe('"Beeld {n} van {count}"'),
    })
    .describe("The viewer's words (locales: viewer360)"),
});

export type Viewer360Props = z.infer<typeof propsSchema>;
export type Viewer360Texts = Viewer360Props["texts"];

export const contract = defineHook({
  hook: "viewer360",
  kind: "island",
  whenToUse:
    "A product seen all around, turned by dragging (eased, with momentum, stopping at the first and last frame), the arrow keys, Home/End or its buttons; zoomed with a pinch, ctrl+wheel, the + and − keys or its buttons; shown full screen. Once per product page, as its main image: it is the page's largest element, so it loads at once.",
  partial: {
    name: "viewer360",
    key: "viewer",
    params: z.strictObject({
      productId: z.string().min(1).describe("The product's id, for the viewer's analytics"),
      frontId: z.string().min(1).describe("The front to show: a product's fronts[orientation]"),
      alt: z.string().min(1).describe("The first frame's alt text: the product and its orientation"),
      version: z.string().describe("The frames' version (readFramesVersion), so a new set is fetched anew"),
      imageHost: z.string().describe('The frames\' origin (config.imageHost), or "" for the shop itself'),
      alts: z
        .record(z.string(), z.string())
        .optional()
        .describe("Alt texts per front, for the product page's orientation choice"),
    }),
  },
  props: propsSchema,
  parts: {
    ".viewer360__image": {
      required: false,
      description: "The first frame, the plain image without JavaScript",
    },
  },
});
