export { contract } from "./contract.ts";

/** Spec: the generic lazy loader starts loading 250 px before an image scrolls into view (any side). */
export const lazyMargin = "250px";

function reveal(element: HTMLElement): void {
  const src = element.dataset.lazySrc;
  if (src && element instanceof HTMLImageElement) {
    // sizes and srcset before src: the browser then picks its candidate once, not src first.
    const { lazySrcset: srcset, lazySizes: sizes } = element.dataset;
    if (sizes) element.sizes = sizes;
    if (srcset) element.srcset = srcset;
    element.src = src;
    delete element.dataset.lazySrc;
    delete element.dataset.lazySrcset;
    delete element.dataset.lazySizes;
  }
  const background = element.dataset.lazyBackground;
  if (background) {
    // CSSOM, not a style attribute: allowed by the CSP's style-src 'self'.
    element.style.backgroundImage = `url("${encodeURI(background)}")`;
    delete element.dataset.lazyBackground;
  }
}

const selector = "[data-lazy-src], [data-lazy-background]";

/**
 * Images marked with data-lazy-src (the markup carries a <noscript> copy for pages
 * without JavaScript) and backgrounds marked with data-lazy-background load when they
 * come within 250 px of the viewport. Elements inserted later are picked up as well.
 */
export function start(doc: Document): void {
  const view = doc.defaultView;
  if (!view || !("IntersectionObserver" in view)) {
    for (const el of doc.querySelectorAll<HTMLElement>(selector)) reveal(el);
    return;
  }
  const observer = new view.IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        reveal(entry.target as HTMLElement);
      }
    },
    { rootMargin: lazyMargin },
  );
  const watch = (root: ParentNode) => {
    for (const el of root.querySelectorAll<HTMLElement>(selector)) observer.observe(el);
    if (root instanceof HTMLElement && root.matches(selector)) observer.observe(root);
  };
  watch(doc);
  new view.MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof view.HTMLElement) watch(node);
    }
  }).observe(doc.documentElement, { childList: true, subtree: true });
}
