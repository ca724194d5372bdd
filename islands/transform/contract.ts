import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "transform",
  kind: "island",
  whenToUse:
    "An example or detail a shopper opens on purpose, shown in place without leaving the page (a photo book's example spread). Its content must fit a panel of 800 × 310 px; longer content scrolls inside it.",
  partial: {
    name: "transform",
    key: "transform",
    params: z.strictObject({
      id: z.string().min(1).describe("The panel's id, unique on the page"),
      button: z.string().min(1).describe("The button's words"),
      title: z.string().min(1).describe("The panel's heading"),
      html: z.string().describe("The panel's content: trusted HTML, the output of an include"),
    }),
  },
  parts: {
    "summary.transform__button": { required: true, description: "The button, a summary without JavaScript" },
    ".transform__panel": { required: true, description: "The panel it grows into" },
    "[data-transform-close]": {
      required: false,
      description: "The close button (hidden without JavaScript)",
    },
  },
});
