import type { FaqNavigation } from "../../server/routes/faq.ts";
import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "faq",
  kind: "island",
  whenToUse:
    "The FAQ's topics with their questions as a list that folds open, on the FAQ pages and the customer service page. Opening one topic closes the others.",
  partial: {
    name: "faq",
    key: "faq",
    params: z.strictObject({
      nav: z
        .custom<FaqNavigation>((value) => typeof value === "object" && value !== null)
        .describe(
          "(FaqNavigation) The topics and questions, the current page marked: faqNavigation() in server/routes/faq.ts",
        ),
      navId: z.string().min(1).default("faq-nav").describe("The list's id, unique on the page"),
    }),
  },
  parts: {
    "details > summary": { required: true, description: "A topic's heading, which opens and closes it" },
  },
});
