import type { DOMTree, HtmlElement } from "html-validate";
import type { ElementPrint } from "./locate.ts";
import type { RenderedPage } from "./render.ts";

/** A rendered page with the document html-validate parsed from it. */
export interface PageView {
  page: RenderedPage;
  document: DOMTree;
}

const entities: Record<string, string> = { amp: "&", quot: '"', apos: "'", lt: "<", gt: ">", nbsp: "\u00a0" };

/** html-validate keeps attribute values as written; the checks want what the browser reads. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return entities[name.toLowerCase()] ?? whole;
  });
}

/** An attribute's value as written in the page ("" for a bare attribute), or undefined when absent. */
export function rawValue(element: HtmlElement, name: string): string | undefined {
  const attribute = element.getAttribute(name);
  if (!attribute) return undefined;
  return typeof attribute.value === "string" ? attribute.value : "";
}

export function value(element: HtmlElement, name: string): string | undefined {
  const raw = rawValue(element, name);
  return raw === undefined ? undefined : decodeEntities(raw);
}

export function allElements(document: DOMTree): HtmlElement[] {
  const out: HtmlElement[] = [];
  document.visitDepthFirst((element) => {
    out.push(element);
  });
  return out;
}

/** The element as the templates would have written it, to find that line. */
export function elementPrint(element: HtmlElement, attribute?: string): ElementPrint {
  return {
    tag: element.tagName,
    attributes: element.attributes.map((a) => ({
      name: a.key,
      value: typeof a.value === "string" ? a.value : undefined,
    })),
    ...(attribute ? { attribute } : {}),
  };
}

/** `name="value"` as a template would hold it literally. */
export const literal = (element: HtmlElement, name: string) => {
  const raw = rawValue(element, name);
  return raw ? `${name}="${raw}"` : name;
};

/** Inside an error box the server put in a partial's place: its own problem is reported already. */
export const inTemplateError = (element: HtmlElement) => element.closest(".template-error") !== null;
