import { defineExamples } from "../runtime/define-examples.ts";
import type { ParamsOf } from "../runtime/define-hook.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  // The product page's own data for the pattern library's product; its form adds to the real cart.
  default: {
    title: (ctx) => ctx.t("patterns.product-options.examples.default"),
    params: (ctx) => ctx.data.productOptions as ParamsOf<typeof contract> | undefined,
  },
});
