/**
 * The FAQ list (island: faq). Each topic is a native <details>, which already opens and
 * closes without JavaScript and which the browser's find-in-page opens to show a match
 * (Chrome, Edge; elsewhere it searches open items only). On top of that the island does
 * what the spec asks: opening an item collapses its first-level siblings (items at the
 * same level, never the ones inside it), and each summary states aria-expanded.
 * Which items are open is kept in the history entry, so Back and Forward bring them back
 * (browsers restore form fields, not the state of a details element).
 */
import { track } from "../analytics/track.ts";
import { readPageState, writePageState } from "../runtime/history-state.ts";

export { contract } from "./contract.ts";

function summaryOf(details: HTMLDetailsElement): HTMLElement | null {
  return details.querySelector<HTMLElement>(":scope > summary");
}

function reflect(details: HTMLDetailsElement): void {
  summaryOf(details)?.setAttribute("aria-expanded", String(details.open));
}

/** The list item holding an item (or the item itself), whose siblings hold the other items of its level. */
function siblingsOf(details: HTMLDetailsElement): HTMLDetailsElement[] {
  const item = details.parentElement?.tagName === "LI" ? details.parentElement : details;
  const level = item.parentElement;
  if (!level) return [];
  return [...level.children].flatMap((child) => {
    if (child === item) return [];
    const found =
      child instanceof HTMLDetailsElement
        ? child
        : child.querySelector<HTMLDetailsElement>(":scope > details");
    return found ? [found] : [];
  });
}

export function mount(element: HTMLElement): () => void {
  const items = [...element.querySelectorAll<HTMLDetailsElement>("details")];
  const view = element.ownerDocument.defaultView;
  // The same list renders the same items in the same order on this page, so positions name them.
  const stateKey = `faq#${element.id}`;
  const kept = view ? readPageState<number[]>(stateKey, view) : undefined;
  if (Array.isArray(kept)) for (const [i, details] of items.entries()) details.open = kept.includes(i);
  for (const details of items) reflect(details);
  const keep = () => {
    if (view)
      writePageState(
        stateKey,
        items.flatMap((details, i) => (details.open ? [i] : [])),
        view,
      );
  };

  // "toggle" does not bubble, so it is caught on the way down (capture).
  const onToggle = (event: Event) => {
    const details = event.target;
    if (!(details instanceof HTMLDetailsElement)) return;
    reflect(details);
    if (details.open) {
      for (const sibling of siblingsOf(details)) {
        if (!sibling.open) continue;
        sibling.open = false;
        reflect(sibling);
      }
    }
    keep();
  };
  element.addEventListener("toggle", onToggle, true);
  // Analytics: a topic the shopper opens (a click, or Enter or Space, on its summary); not one
  // brought back or opened by find-in-page.
  const onSummaryClick = (event: MouseEvent) => {
    const details = (event.target as Element | null)?.closest?.("summary")?.parentElement;
    if (details instanceof HTMLDetailsElement && !details.open)
      track(details, "faq.open", {
        topic: details.closest<HTMLElement>("[data-analytics-topic]")?.dataset.analyticsTopic,
      });
  };
  element.addEventListener("click", onSummaryClick);
  // Back from the back/forward cache: the items are as they were; their summaries must say so.
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) for (const details of items) reflect(details);
  };
  view?.addEventListener("pageshow", onPageShow);

  return () => {
    element.removeEventListener("toggle", onToggle, true);
    element.removeEventListener("click", onSummaryClick);
    view?.removeEventListener("pageshow", onPageShow);
    for (const details of items) summaryOf(details)?.removeAttribute("aria-expanded");
  };
}
