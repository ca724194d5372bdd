import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  default: {
    title: (ctx) => ctx.t("patterns.analytics.examples.default"),
    markup: (ctx) =>
      `<button type="button" class="button" data-analytics="product_card.click" data-analytics-product-id="canvas" data-analytics-list="patterns" data-analytics-position="1">${ctx.escape(ctx.t("patterns.analytics.button"))}</button>`,
  },
});
