import { tabletQuery } from "../../server/domain/breakpoints.ts";
import { type ProductSelection, selectionStore } from "../product/selection-store.ts";
import { readProps } from "../runtime/props.ts";
import type { AddToCartBarProps } from "./contract.ts";

export { contract } from "./contract.ts";

/** The bar is for small screens only: phones and tablets. */
export const narrowQuery = tabletQuery;

/** Inputs that bring up no on-screen keyboard. */
const untyped = new Set("button submit reset checkbox radio range color file image hidden".split(" "));

/** Whether focus on this element brings up the on-screen keyboard, which would squeeze the bar against the header. */
const typesIn = (target: EventTarget | null): boolean =>
  target instanceof HTMLTextAreaElement ||
  (target instanceof HTMLInputElement && !untyped.has(target.type)) ||
  (target instanceof HTMLElement && target.isContentEditable);

/** Room kept between a focused element and the bar's top edge. */
const gap = 8;

/**
 * The add-to-cart bar: shows on a small screen once the add-to-cart region has been
 * scrolled past, hides when it is back in view, when the window is wider than 725 px and
 * while the shopper types (the keyboard is up). Its button submits the real form (form
 * attribute), so the ajax post, validation and the cart count work as with the form's own.
 * While it shows, the page keeps room for it below (scroll-padding), and an element that
 * gets focus behind it is scrolled up above it.
 */
export function mount(element: HTMLElement): () => void {
  const { productId, watch } = readProps<AddToCartBarProps>(element);
  const doc = element.ownerDocument;
  const view = doc.defaultView;
  const watched = doc.getElementById(watch);
  const button = element.querySelector<HTMLButtonElement>("button[data-bar-submit]");
  if (!view || !watched || !button) throw new Error(`add-to-cart-bar: no element #${watch} to watch`);
  const root = doc.documentElement;
  const narrow = view.matchMedia(narrowQuery);
  let inView = false;
  let reached = false;
  let typing = false;
  let shown = false;

  /** Scrolls an element the bar would cover up above it. */
  const uncover = (target: Element | null) => {
    if (!shown || !(target instanceof HTMLElement) || element.contains(target) || target === doc.body) return;
    // The bar's resting place, not its box, which may still be sliding in.
    const limit = view.innerHeight - element.offsetHeight - gap;
    const { top, bottom } = target.getBoundingClientRect();
    if (bottom > limit && top < view.innerHeight) view.scrollBy({ top: Math.min(bottom - limit, top) });
  };

  const update = () => {
    const next = narrow.matches && reached && !inView && !typing;
    if (next === shown) return;
    shown = next;
    element.dataset.barState = next ? "shown" : "hidden";
    if (next) {
      root.style.setProperty("--add-to-cart-bar-height", `${element.offsetHeight}px`);
      root.dataset.addToCartBar = "shown";
      uncover(doc.activeElement);
    } else {
      delete root.dataset.addToCartBar;
    }
  };

  // The region around the form, not the form: an ajax post replaces the form, never the region.
  const watchWith = (rootMargin: string, set: (intersecting: boolean) => void) => {
    const observer = new view.IntersectionObserver(
      (entries) => {
        const entry = entries.at(-1);
        if (!entry) return;
        set(entry.isIntersecting);
        update();
      },
      { rootMargin },
    );
    observer.observe(watched);
    return observer;
  };
  const observers = [
    watchWith("0px", (intersecting) => {
      inView = intersecting;
    }),
    // Everything above the viewport: a jump or a fling from above the form to below it
    // crosses no edge of the viewport, so the viewport's own observer would not notice.
    watchWith("100000px 0px -100% 0px", (intersecting) => {
      reached = intersecting;
    }),
  ];

  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    typing = typesIn(target);
    update();
    // The browser scrolls a newly focused element into view after focusin; look once it has.
    view.requestAnimationFrame(() => uncover(target instanceof Element ? target : null));
  };
  const onFocusOut = (event: FocusEvent) => {
    if (event.relatedTarget) return;
    typing = false;
    update();
  };
  const onWidth = () => update();
  doc.addEventListener("focusin", onFocusIn);
  doc.addEventListener("focusout", onFocusOut);
  narrow.addEventListener("change", onWidth);

  const choice = element.querySelector("[data-bar-choice]");
  const price = element.querySelector("[data-bar-price]");
  const follow = (selection: ProductSelection | undefined) => {
    if (selection?.productId !== productId) return;
    if (choice && selection.choice) choice.textContent = selection.choice;
    if (price && selection.price) price.textContent = selection.price;
    if (selection.available !== undefined) button.disabled = !selection.available;
  };
  follow(selectionStore.getState().selection);
  const unsubscribe = selectionStore.subscribe((state) => follow(state.selection));

  element.dataset.barState = "hidden";
  element.hidden = false;

  return () => {
    for (const observer of observers) observer.disconnect();
    unsubscribe();
    doc.removeEventListener("focusin", onFocusIn);
    doc.removeEventListener("focusout", onFocusOut);
    narrow.removeEventListener("change", onWidth);
    delete root.dataset.addToCartBar;
    delete element.dataset.barState;
    element.hidden = true;
  };
}
