import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  // Its markup comes only from a form definition through forms/field.eta, so the live
  // example is the library's example form, rendered that way on this page.
  default: {
    title: (ctx) => ctx.t("patterns.validation.examples.default"),
    markup: (ctx) =>
      `<p class="pattern__note">${ctx.escape(ctx.t("patterns.validation.live"))} <a href="#ajax-form">${ctx.escape(ctx.t("patterns.validation.toForm"))}</a></p>`,
  },
});
