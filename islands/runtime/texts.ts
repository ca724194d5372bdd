export { type PluralTexts, pluralText } from "../../server/domain/plural.ts";

/** Reads texts the server put on an element as JSON; islands hard-code no words of their own. */
export function readTexts<T>(element: HTMLElement, attribute = "data-texts"): T {
  const raw = element.getAttribute(attribute);
  if (!raw) throw new Error(`${attribute} is missing`);
  return JSON.parse(raw) as T;
}

/** Texts the layout rendered once for a whole feature: <script type="application/json" data-texts-for="name">. */
export function pageTexts<T>(doc: Document, feature: string): T {
  const script = doc.querySelector(`script[type="application/json"][data-texts-for="${feature}"]`);
  if (!script?.textContent) throw new Error(`texts for ${feature} are missing`);
  return JSON.parse(script.textContent) as T;
}

export function pageLang(element: Element): string {
  return element.closest("[lang]")?.getAttribute("lang") ?? "nl";
}
