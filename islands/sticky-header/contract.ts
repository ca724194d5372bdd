import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "sticky-header",
  kind: "behaviour",
  whenToUse:
    "Only on the site header (views/partials/site-header.eta), once per page: it hides while the shopper scrolls down and comes back while they scroll up.",
  attributes: z.object({
    "data-sticky-header": z
      .string()
      .describe(
        "Marks the page's header; written without a value. The behaviour sets data-sticky-state on it",
      ),
  }),
});
