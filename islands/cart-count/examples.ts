import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  // The page's own count: a made-up one would set the header's badge on this page too.
  default: {
    title: (ctx) => ctx.t("patterns.cart-count.examples.default"),
    params: () => ({}),
  },
});
