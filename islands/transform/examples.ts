import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  default: {
    title: (ctx) => ctx.t("patterns.transform.examples.default"),
    params: (ctx) => ({
      id: "pattern-transform",
      button: ctx.t("patterns.transform.button"),
      title: ctx.t("patterns.transform.title"),
      html: `<p>${ctx.escape(ctx.t("patterns.transform.text"))}</p>`,
    }),
  },
});
