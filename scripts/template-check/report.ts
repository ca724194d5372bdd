import type { ElementPrint, Place } from "./locate.ts";
import { placeText } from "./locate.ts";

/**
 * What a check found on a page, and how to find where it was written: a place the page
 * itself names (a template error box), texts to look for in the templates, or an element
 * to match against them. Without any of those, or when nothing matches, the problem is
 * put at the page's template.
 */
export interface Finding {
  message: string;
  place?: Place;
  texts?: ReadonlyArray<string | RegExp>;
  element?: ElementPrint;
}

/** A problem as an editor reads it: where, what, and the first page it was seen on. */
export interface Problem {
  place: Place | undefined;
  message: string;
  /** The first page it was seen on; a problem of the locale files has none. */
  page?: { locale: string; url: string };
}

/** `views/pages/x.eta:12  what is wrong (nl /klantenservice)`; without a file, the page's address leads. */
export function problemLine(problem: Problem): string {
  const { place, page, message } = problem;
  if (place) return `${placeText(place)}  ${message}${page ? ` (${page.locale} ${page.url})` : ""}`;
  return `${page?.url ?? "?"}  ${message}${page ? ` (${page.locale})` : ""}`;
}

/** One line per problem however many pages and languages show it: the first page seen is named. */
export class ProblemList {
  private readonly byKey = new Map<string, Problem>();

  add(problem: Problem): void {
    const key = `${problem.place ? placeText(problem.place) : problem.page?.url} ${problem.message}`;
    if (!this.byKey.has(key)) this.byKey.set(key, problem);
  }

  get problems(): Problem[] {
    const order = (p: Problem) => [p.place?.file ?? `~${p.page?.url ?? ""}`, p.place?.line ?? 0] as const;
    return [...this.byKey.values()].sort((a, b) => {
      const [fileA, lineA] = order(a);
      const [fileB, lineB] = order(b);
      return fileA.localeCompare(fileB) || lineA - lineB || a.message.localeCompare(b.message);
    });
  }
}
