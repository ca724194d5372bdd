export { type PluralTexts, pluralText } from "../../server/domain/plural.ts";

/** The language the server wrote the element in, for numbers, dates and plural forms. */
export function pageLang(element: Element): string {
  return element.closest("[lang]")?.getAttribute("lang") ?? "nl";
}
