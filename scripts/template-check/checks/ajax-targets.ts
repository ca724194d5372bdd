import { Window } from "happy-dom";
import { inTemplateError, literal, type PageView, rawValue, value } from "../dom.ts";
import type { Finding } from "../report.ts";

/**
 * The whole page in a browser-like DOM, for the rare selector html-validate's own engine
 * does not take (:not(), :is()…). Made once per page and only then.
 */
class BrowserDocument {
  private window: Window | undefined;
  private document: Document | undefined;

  constructor(private readonly html: string) {}

  count(selector: string): number {
    if (!this.document) {
      this.window = new Window({
        settings: {
          disableJavaScriptEvaluation: true,
          disableJavaScriptFileLoading: true,
          disableCSSFileLoading: true,
        },
      });
      this.document = new this.window.DOMParser().parseFromString(
        this.html,
        "text/html",
      ) as unknown as Document;
    }
    return this.document.querySelectorAll(selector).length;
  }

  async close(): Promise<void> {
    await this.window?.happyDOM.close();
  }
}

/** A data-ajax-update selector that matches nothing on the page: the answer would go nowhere. */
export async function ajaxTargets(view: PageView): Promise<Finding[]> {
  const findings: Finding[] = [];
  const browser = new BrowserDocument(view.page.html);
  try {
    for (const element of view.document.querySelectorAll("[data-ajax-update]")) {
      if (inTemplateError(element)) continue;
      const selector = value(element, "data-ajax-update") ?? "";
      const texts = [literal(element, "data-ajax-update"), `"${rawValue(element, "data-ajax-update")}"`];
      if (selector.trim() === "") {
        findings.push({ message: "data-ajax-update is empty: say which element the answer replaces", texts });
        continue;
      }
      let matches: number;
      try {
        matches = view.document.querySelectorAll(selector).length;
      } catch {
        try {
          matches = browser.count(selector);
        } catch {
          findings.push({ message: `data-ajax-update="${selector}" is not a CSS selector`, texts });
          continue;
        }
      }
      if (matches === 0) {
        findings.push({ message: `data-ajax-update="${selector}" matches nothing on this page`, texts });
      }
    }
  } finally {
    await browser.close();
  }
  return findings;
}
