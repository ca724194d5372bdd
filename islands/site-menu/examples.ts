import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  // A second menu would fight the page's own, which is the live example.
  default: {
    title: (ctx) => ctx.t("patterns.site-menu.examples.default"),
    markup: (ctx) => `<p class="pattern__note">${ctx.escape(ctx.t("patterns.site-menu.live"))}</p>`,
  },
});
