import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "site-menu",
  kind: "behaviour",
  whenToUse:
    "Only on the site header's menu (views/partials/site-header.eta), once per page: at 725 px and below, the <details> that holds the navigation and the languages becomes a drawer.",
  attributes: z.object({
    "data-site-menu": z
      .string()
      .describe(
        "Marks the header's <details> menu; written without a value. The drawer sets data-drawer on it",
      ),
  }),
  parts: {
    "summary.site-menu__button": { required: true, description: "The menu button, also without JavaScript" },
    ".site-menu__panel": { required: true, description: "The navigation and the languages: the drawer" },
    "[data-site-menu-close]": {
      required: false,
      description: "The drawer's close button (hidden without JavaScript)",
    },
  },
});
