import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

type LiveTabs = { id: string; label: string; sections: { id: string; label: string }[] } | undefined;

export default defineExamples(contract, {
  default: {
    title: (ctx) => ctx.t("patterns.tabs.examples.default"),
    params: (ctx) => {
      const tabs = ctx.data.tabs as LiveTabs;
      if (!tabs) return undefined;
      const text = (key: string) => ctx.escape(ctx.t(`patterns.tabs.${key}`));
      const third = tabs.sections[2];
      // A link to a section, a link to something inside one, and a field whose text must survive a switch.
      return {
        id: tabs.id,
        label: tabs.label,
        sections: tabs.sections.map(({ id, label }) => ({ id, label })),
        panels: [
          `<p>${text("panels.a")} <a href="#pattern-tabs-note">${text("toNote")}</a></p>\n` +
            `<p><label class="form-label" for="pattern-tabs-name">${text("nameLabel")}</label> <input class="form-control" id="pattern-tabs-name" type="text" autocomplete="off"></p>`,
          `<p>${text("panels.b")} <a href="#${third?.id ?? ""}">${text("toThird")}</a></p>`,
          `<p id="pattern-tabs-note">${text("panels.c")}</p>`,
        ],
      };
    },
  },
});
