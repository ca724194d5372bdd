import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  // Written only by a form definition through forms/field.eta: the example form's password field is the live example.
  default: {
    title: (ctx) => ctx.t("patterns.password-strength.examples.default"),
    markup: (ctx) =>
      `<p class="pattern__note">${ctx.escape(ctx.t("patterns.password-strength.live"))} <a href="#example-password">${ctx.escape(ctx.t("patterns.password-strength.toField"))}</a></p>`,
  },
});
