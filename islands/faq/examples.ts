import type { FaqNavigation } from "../../server/routes/faq.ts";
import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  // The first question of the first topic stands for the current page.
  default: {
    title: (ctx) => ctx.t("patterns.faq.examples.default"),
    params: (ctx) => {
      const nav = ctx.data.faqNav as FaqNavigation | undefined;
      return nav && { nav, navId: "faq-nav-example" };
    },
  },
});
