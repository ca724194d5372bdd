import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  // Its own ids: the pattern library's page has no other search form, but stays unambiguous.
  default: {
    title: (ctx) => ctx.t("patterns.support-search.examples.default"),
    params: () => ({ id: "support-search-example" }),
  },
});
