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
  // Every rule to try (server/forms/pattern-rules-form.ts, partials/forms/pattern-rules-region):
  // the browser judges on leaving a field and on submit, the server on the post.
  rules: {
    title: (ctx) => ctx.t("patterns.validation.examples.rules"),
    markup: (ctx) => {
      const note = (key: string) =>
        `<p class="pattern__note">${ctx.escape(ctx.t(`patterns.validation.rules.${key}`))}</p>`;
      return [
        note("intro"),
        note("notation"),
        note("email"),
        '<div id="rules-form-region">',
        ctx.include("/partials/forms/pattern-rules-region").trim(),
        "</div>",
      ].join("\n");
    },
  },
});
