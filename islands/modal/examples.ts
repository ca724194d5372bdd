import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

const sourceId = "pattern-modal-source";

export default defineExamples(contract, {
  fromPage: {
    title: (ctx) => ctx.t("patterns.modal.examples.fromPage"),
    params: (ctx) =>
      typeof ctx.data.modalPage === "string"
        ? {
            label: ctx.t("patterns.modal.pageLabel"),
            title: ctx.t("subscription.info.topics.cancel.title"),
            url: ctx.data.modalPage,
          }
        : undefined,
    markup: (_ctx, html) => `<ul class="pattern__links"><li>${html.trim()}</li></ul>`,
  },
  fromThisPage: {
    title: (ctx) => ctx.t("patterns.modal.examples.fromThisPage"),
    params: (ctx) => ({
      label: ctx.t("patterns.modal.sourceLabel"),
      title: ctx.t("patterns.modal.sourceTitle"),
      source: sourceId,
    }),
    markup: (ctx, html) =>
      `<ul class="pattern__links"><li>${html.trim()}</li></ul>\n` +
      ctx.include("/partials/modal-source", {
        source: {
          id: sourceId,
          title: ctx.t("patterns.modal.sourceTitle"),
          html: `<p>${ctx.escape(ctx.t("patterns.modal.sourceText"))}</p>`,
        },
      }),
  },
});
