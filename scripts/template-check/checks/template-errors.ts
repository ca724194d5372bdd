import { relative, resolve } from "node:path";
import { projectRoot } from "../../../server/config.ts";
import { type PageView, value } from "../dom.ts";
import type { Finding } from "../report.ts";

/**
 * A partial given an unknown parameter, missing a required one or one of the wrong type:
 * in "box" mode the server renders an error box in its place, which names the including
 * template and line (server/http/rendering/template-contracts.ts). The file is named from the views
 * folder, so a copy of views/ reads like the original.
 */
export function templateErrors(view: PageView, views: string): Finding[] {
  return view.document.querySelectorAll("[data-template-error]").map((box) => {
    const where = value(box, "data-template") ?? "";
    const [, file = where, line] = /^(.*?)(?::(\d+))?$/.exec(where) ?? [];
    const fromViews = relative(views, resolve(projectRoot, file)).replaceAll("\\", "/");
    const partial = value(box, "data-partial");
    const message = value(box, "data-template-error") ?? "template error";
    return {
      message: partial ? `partial "${partial}": ${message}` : message,
      place: {
        file: fromViews.startsWith("..") ? file : `views/${fromViews}`,
        ...(line ? { line: Number(line) } : {}),
      },
    };
  });
}
