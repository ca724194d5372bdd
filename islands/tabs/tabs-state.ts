import { tabletQuery } from "../../server/domain/breakpoints.ts";
import { hashSlug, tabForHash } from "../../server/domain/tab-slug.ts";

/** One panel as the server rendered it: its id (the label's slug), label and content. */
export interface TabSection {
  id: string;
  label: string;
  node: HTMLElement;
}

/** At or below the tablet width the tabs act as an accordion. */
export const accordionQuery = tabletQuery;

/**
 * Where an address fragment points: the section whose label it names ("#Uploads",
 * accents and case ignored, or the section's own id), or the section holding the element
 * it names ("#aanmelden", the sign-up form inside the first panel), with that element.
 */
export interface HashTarget {
  index: number;
  /** The element inside the section the fragment names, when it names one rather than the section. */
  element?: HTMLElement;
}

export function targetForHash(hash: string, sections: readonly TabSection[]): HashTarget | undefined {
  const byLabel = tabForHash(
    hash,
    sections.map((s) => s.label),
  );
  if (byLabel >= 0) return { index: byLabel };
  const slug = hashSlug(hash);
  if (!slug) return undefined;
  const byId = sections.findIndex((s) => s.id === slug);
  if (byId >= 0) return { index: byId };
  const raw = decodeSafely(hash.replace(/^#/, ""));
  if (!raw) return undefined;
  for (const [index, section] of sections.entries()) {
    const element = findInside(section.node, raw);
    if (element) return { index, element };
  }
  return undefined;
}

function findInside(node: HTMLElement, id: string): HTMLElement | undefined {
  try {
    return node.querySelector<HTMLElement>(`#${CSS.escape(id)}`) ?? undefined;
  } catch {
    return undefined;
  }
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The fragment of a link that stays on this page ("#uploads", or this very address with
 * a fragment), or undefined for a link that leaves it or opens elsewhere.
 */
export function inPageHash(link: HTMLAnchorElement, here: Location): string | undefined {
  if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return undefined;
  const url = new URL(link.getAttribute("href") ?? "", here.href);
  if (!url.hash || url.origin !== here.origin || url.pathname !== here.pathname || url.search !== here.search)
    return undefined;
  return url.hash;
}
