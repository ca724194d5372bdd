import { type Locale, locales } from "../../../server/i18n/locales.ts";
import type { Messages } from "../../../server/i18n/translate.ts";
import { allElements, type PageView, value } from "../dom.ts";
import type { Finding } from "../report.ts";

/** Every text of a locale file, as a set. */
function textsOf(node: Messages | string): string[] {
  return typeof node === "string"
    ? [node]
    : Object.values(node).flatMap((child) => textsOf(child as Messages));
}

/**
 * What search engines show under a page's title: every page needs exactly one
 * `<meta name="description">` with text, in the page's language (a text the other locale
 * file has and its own lacks gives it away). Pages without one cost Lighthouse's SEO
 * score; the layout writes it from the page data's `description`.
 */
export function metaDescriptions(messages: Record<Locale, Messages>): (view: PageView) => Finding[] {
  const texts = Object.fromEntries(locales.map((l) => [l, new Set(textsOf(messages[l]))])) as Record<
    Locale,
    Set<string>
  >;
  return (view) => {
    const found = allElements(view.document).filter(
      (element) => element.tagName === "meta" && value(element, "name") === "description",
    );
    const where = { texts: ['<meta name="description"'] };
    if (found.length === 0)
      return [{ message: "the page has no meta description: give its page data a description" }];
    if (found.length > 1) return [{ ...where, message: `the page has ${found.length} meta descriptions` }];
    const content = (value(found[0] as (typeof found)[number], "content") ?? "").trim();
    if (content === "") return [{ ...where, message: "the page's meta description is empty" }];
    const own = view.page.locale;
    const foreign = locales.find((l) => l !== own && texts[l].has(content) && !texts[own].has(content));
    if (foreign)
      return [{ ...where, message: `the page's meta description is the ${foreign} text "${content}"` }];
    return [];
  };
}
