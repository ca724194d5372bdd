import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  type ConfigData,
  type DOMReadyEvent,
  type DOMTree,
  HtmlValidate,
  type Message,
  type Plugin,
  Rule,
  StaticConfigLoader,
} from "html-validate";
import { projectRoot } from "../../server/config.ts";
import { nuRules, nuRulesPlugin } from "./nu-rules.ts";

/**
 * The project's html-validate settings, .htmlvalidate.json: html-validate:recommended with
 * only the rules about style rather than conformance switched off (JSON takes no comments,
 * so the reasons are here):
 *
 * - doctype-style: `<!doctype html>` in lower case is as valid as upper case.
 * - tel-non-breaking: typographic advice (no line break inside a phone number), not a rule of HTML.
 * - long-title: a search-result length advice; HTML sets no limit on a title.
 * - prefer-native-element: advises `<section>` over `role="region"`; both are valid and accessible.
 * - aria-label-misuse stays on for names HTML forbids, but not for those it only "does not
 *   recommend" (allowAnyNamable), such as a list named by aria-label.
 *
 * Two requirements html-validate does not know come from nu-rules.ts.
 */
export const configFile = resolve(projectRoot, ".htmlvalidate.json");

/** One validation: what html-validate says, and the document it parsed for the other checks. */
export interface Validated {
  messages: Message[];
  document: DOMTree | undefined;
}

export class Conformance {
  private readonly validator: HtmlValidate;
  private parsed: DOMTree | undefined;

  constructor(file = configFile) {
    const own = JSON.parse(readFileSync(file, "utf8")) as ConfigData;
    const holder = this;
    // The document html-validate builds anyway: the other checks read it, so a page is parsed once.
    class KeepDocument extends Rule {
      override setup(): void {
        this.on("dom:ready", (event: DOMReadyEvent) => {
          holder.parsed = event.document;
        });
      }
    }
    const keep: Plugin = { name: "template-check", rules: { "template-check/keep-document": KeepDocument } };
    this.validator = new HtmlValidate(
      new StaticConfigLoader({
        ...own,
        plugins: [...(own.plugins ?? []), nuRulesPlugin, keep],
        rules: { ...own.rules, ...nuRules, "template-check/keep-document": "error" },
      }),
    );
  }

  async validate(html: string, name: string): Promise<Validated> {
    this.parsed = undefined;
    const report = await this.validator.validateString(html, name);
    return { messages: report.results.flatMap((result) => result.messages), document: this.parsed };
  }
}
