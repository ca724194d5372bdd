import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

const modes = [
  ["replace", "#tip-box", "2", "replace"],
  ["before", "#tip-box", "3", "before"],
  ["after", "#tip-box", "2", "after"],
  ["replace-with", "#tip-box-whole", "1", "replaceWith"],
] as const;

export default defineExamples(contract, {
  // The journeys and the no-JavaScript redirect find these examples by the ids of the old entries.
  modes: {
    title: (ctx) => ctx.t("patterns.ajax.examples.modes"),
    markup: (ctx) => {
      const text = (key: string) => ctx.escape(ctx.t(`patterns.ajax.${key}`));
      const tipUrl = ctx.href("patternsTip");
      const links = modes.map(
        ([mode, target, n, label]) =>
          `  <li><a href="${tipUrl}?n=${n}" data-ajax="true" data-ajax-update="${target}" data-ajax-mode="${mode}">${text(label)}</a></li>`,
      );
      return [
        '<div id="ajax-link">',
        `<div class="pattern__tipbox" id="tip-box"><p class="pattern-tip">${text("tips.1")}</p></div>`,
        `<div class="pattern__tipbox" id="tip-box-whole"><p class="pattern-tip">${text("tips.3")}</p></div>`,
        '<ul class="pattern__links">',
        ...links,
        "</ul>",
        "</div>",
      ].join("\n");
    },
  },
  confirm: {
    title: (ctx) => ctx.t("patterns.ajax.examples.confirm"),
    markup: (ctx) => {
      const text = (key: string) => ctx.escape(ctx.t(`patterns.ajax.${key}`));
      return [
        `<div class="pattern__tipbox" id="tip-box-confirm"><p class="pattern-tip">${text("tips.3")}</p></div>`,
        `<p id="tip-loading" hidden>${text("loading")}</p>`,
        `<a href="${ctx.href("patternsTip")}?n=1" data-ajax="true" data-ajax-update="#tip-box-confirm" data-ajax-confirm="${text("confirmQuestion")}" data-ajax-loading="#tip-loading">${text("confirmLink")}</a>`,
      ].join("\n");
    },
  },
  methodOverride: {
    title: (ctx) => ctx.t("patterns.ajax.examples.methodOverride"),
    markup: (ctx) => {
      const text = (key: string) => ctx.escape(ctx.t(`patterns.ajax.${key}`));
      // After the plain POST (no JavaScript) the library comes back with ?deleted=1.
      const tip =
        ctx.data.tipDeleted === true
          ? `<p class="pattern-tip pattern-tip--deleted">${text("tipDeleted")}</p>`
          : `<p class="pattern-tip">${text("tips.2")}</p>`;
      return [
        '<div id="method-override">',
        `<div id="tip-delete-result">${tip}</div>`,
        `<form method="post" action="${ctx.href("patternsTip")}" data-ajax="true" data-ajax-method="DELETE" data-ajax-update="#tip-delete-result">`,
        `  <input type="hidden" name="_csrf" value="${ctx.escape(ctx.csrfToken())}">`,
        `  <button class="button" type="submit">${text("deleteButton")}</button>`,
        "</form>",
        "</div>",
      ].join("\n");
    },
  },
  // A form that sends itself as the shopper types (the support search's suggestions work so).
  typing: {
    title: (ctx) => ctx.t("patterns.ajax.examples.typing"),
    markup: (ctx) => {
      const text = (key: string) => ctx.escape(ctx.t(`patterns.ajax.${key}`));
      return [
        `<form method="get" action="${ctx.href("patternsTip")}" data-ajax="true" data-ajax-trigger="input" data-ajax-update="#tip-box-typing">`,
        `  <label class="form-label" for="tip-typing-n">${text("typing.label")}</label>`,
        '  <input class="form-control" id="tip-typing-n" name="n" type="number" min="1" max="3" value="2">',
        `  <button class="button" type="submit">${text("typing.button")}</button>`,
        "</form>",
        `<div class="pattern__tipbox" id="tip-box-typing"><p class="pattern-tip">${text("tips.2")}</p></div>`,
      ].join("\n");
    },
  },
  // The smallest ajax form (partials/forms/pattern-greeting, with its own endpoint): the region
  // around it takes the server's answer, the form with its message (422) or the result.
  form: {
    title: (ctx) => ctx.t("patterns.ajax.examples.form"),
    markup: (ctx) =>
      `<p class="pattern__note">${ctx.escape(ctx.t("patterns.ajax.form.note"))}</p>\n${ctx.include("/partials/forms/pattern-greeting")}`,
  },
});
