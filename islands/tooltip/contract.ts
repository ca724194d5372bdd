import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "tooltip",
  kind: "island",
  whenToUse:
    "A short explanation of one word or option, opened on click (a toggle-tip). Put it in a block (li, div, td), never inside a <p>; longer help belongs on the page or in a modal.",
  partial: {
    name: "tooltip",
    key: "tooltip",
    params: z.strictObject({
      label: z.string().min(1).describe('Its accessible name, read by screen readers: "Uitleg: opslag"'),
      text: z.string().min(1).describe("The explanation the tip shows: a sentence or two"),
    }),
  },
  parts: {
    "summary.tooltip__toggle": { required: true, description: "The i button without JavaScript" },
    ".tooltip__bubble": { required: true, description: "The bubble the tip shows in" },
    "[data-tooltip-text]": { required: true, description: "The explanation, re-announced when it opens" },
    "[data-tooltip-close]": { required: false, description: "The close button (hidden without JavaScript)" },
  },
});
