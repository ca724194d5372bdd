import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  default: {
    title: (ctx) => ctx.t("patterns.tooltip.examples.default"),
    params: (ctx) => ({ label: ctx.t("patterns.tooltip.label"), text: ctx.t("patterns.tooltip.text") }),
    markup: (ctx, html) =>
      `<ul class="pattern__list"><li>${ctx.escape(ctx.t("patterns.tooltip.example"))} ${html.trim()}</li></ul>`,
  },
  inTable: {
    title: (ctx) => ctx.t("patterns.tooltip.examples.inTable"),
    params: (ctx) => ({
      label: ctx.t("patterns.tooltip.tableLabel"),
      text: ctx.t("patterns.tooltip.tableText"),
    }),
    markup: (ctx, html) =>
      `<table class="pattern__table"><tbody><tr><th scope="row">${ctx.escape(ctx.t("patterns.tooltip.tableRow"))}</th><td>${html.trim()}</td></tr></tbody></table>`,
  },
});
