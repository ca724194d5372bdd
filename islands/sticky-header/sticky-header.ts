import { throttle } from "../runtime/throttle.ts";
import { type HeaderState, nextHeaderState } from "./header-state.ts";

export { contract } from "./contract.ts";

/** Spec: scroll handling throttled between 100 and 250 ms. */
export const scrollThrottleMs = 150;

/**
 * While the header is taken out of the flow, its height is kept as padding on its
 * parent so the page below does not jump.
 */
export function start(doc: Document): void {
  const header = doc.querySelector<HTMLElement>("[data-sticky-header]");
  const view = doc.defaultView;
  if (!header || !view) return;
  const holder = header.parentElement;
  let state: HeaderState = "static";
  let lastY = view.scrollY;
  header.dataset.stickyState = state;

  const apply = (next: HeaderState) => {
    if (next === state) return;
    if (state === "static" && holder) holder.style.paddingTop = `${header.offsetHeight}px`;
    if (next === "static" && holder) holder.style.paddingTop = "";
    header.dataset.stickyState = next;
    state = next;
  };

  const onScroll = throttle(() => {
    const y = view.scrollY;
    apply(nextHeaderState(state, lastY, y));
    lastY = y;
  }, scrollThrottleMs);

  view.addEventListener("scroll", onScroll, { passive: true });
  // Keyboard users tabbing into a hidden header must see where focus went.
  header.addEventListener("focusin", () => {
    if (state === "hidden") apply("visible");
  });
  apply(nextHeaderState(state, lastY, lastY));
}
