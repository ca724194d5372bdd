import { allElements, type PageView, rawValue } from "../dom.ts";
import type { Finding } from "../report.ts";

/** An id used more than once on a page: labels, links and ajax targets then reach the first only. */
export function duplicateIds(view: PageView): Finding[] {
  const counts = new Map<string, number>();
  for (const element of allElements(view.document)) {
    const id = rawValue(element, "id");
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, count]) => count > 1)
    .map(([id]) => ({
      message: `id "${id}" is used more than once on the page`,
      texts: [new RegExp(`(?<![\\w-])id="${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"`)],
    }));
}
