import { Window } from "happy-dom";

/**
 * What a browser does with a link under the shop's speculation rules, by the rules' own
 * grammar (document rules: href_matches, selector_matches, and, or, not), evaluated on the
 * real page's markup: the tests ask of a link what Chromium would do with it. Patterns here
 * are pathnames with * wildcards, all the shop's rules use.
 */
export type Speculation = "prerender" | "prefetch" | "none";

type Condition =
  | { and: Condition[] }
  | { or: Condition[] }
  | { not: Condition }
  | { href_matches: string }
  | { selector_matches: string };

interface Rule {
  source: string;
  where: Condition;
  eagerness?: string;
}

export interface Rules {
  prefetch?: Rule[];
  prerender?: Rule[];
}

const origin = "http://shop.test";

function pathPattern(pattern: string): RegExp {
  if (pattern.includes("?") || pattern.includes("#") || pattern.includes("://"))
    throw new Error(`this test's matcher reads pathname patterns only: ${pattern}`);
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`);
}

function holds(condition: Condition, link: HTMLAnchorElement): boolean {
  if ("and" in condition) return condition.and.every((c) => holds(c, link));
  if ("or" in condition) return condition.or.some((c) => holds(c, link));
  if ("not" in condition) return !holds(condition.not, link);
  if ("href_matches" in condition) {
    const url = new URL(link.getAttribute("href") ?? "", `${origin}/`);
    return url.origin === origin && pathPattern(condition.href_matches).test(url.pathname);
  }
  if ("selector_matches" in condition) return link.matches(condition.selector_matches);
  throw new Error(`unknown condition ${JSON.stringify(condition)}`);
}

/** The page's HTML in a document of its own, at `path`, to ask about its links. */
export function pageDocument(html: string, path = "/"): Document {
  const window = new Window({ url: `${origin}${path}` });
  window.document.write(html);
  return window.document as unknown as Document;
}

export function speculationFor(rules: Rules, link: HTMLAnchorElement): Speculation {
  const applies = (list: Rule[] | undefined) =>
    (list ?? []).some((rule) => rule.source === "document" && holds(rule.where, link));
  if (applies(rules.prerender)) return "prerender";
  if (applies(rules.prefetch)) return "prefetch";
  return "none";
}
