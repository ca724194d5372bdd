/**
 * The FAQ list (island: faq). Each topic is a native <details>, which already opens and
 * closes without JavaScript and which the browser's find-in-page opens to show a match
 * (Chrome, Edge; elsewhere it searches open items only). On top of that the island does
 * what the spec asks: opening an item collapses its first-level siblings (items at the
 * same level, never the ones inside it), and each summary states aria-expanded.
 */
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
  for (const details of items) reflect(details);

  // "toggle" does not bubble, so it is caught on the way down (capture).
  const onToggle = (event: Event) => {
    const details = event.target;
    if (!(details instanceof HTMLDetailsElement)) return;
    reflect(details);
    if (!details.open) return;
    for (const sibling of siblingsOf(details)) {
      if (!sibling.open) continue;
      sibling.open = false;
      reflect(sibling);
    }
  };
  element.addEventListener("toggle", onToggle, true);

  return () => {
    element.removeEventListener("toggle", onToggle, true);
    for (const details of items) summaryOf(details)?.removeAttribute("aria-expanded");
  };
}
