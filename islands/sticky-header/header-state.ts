/** Below this many pixels of scroll the header stays in the page flow (spec: 120 px). */
export const stickyThreshold = 120;

export type HeaderState = "static" | "hidden" | "visible";

/**
 * Past the threshold the header hides while the shopper scrolls down and returns,
 * fixed at the top, when they scroll up. An unchanged position keeps the state.
 */
export function nextHeaderState(previous: HeaderState, lastY: number, y: number): HeaderState {
  if (y <= stickyThreshold) return "static";
  if (y > lastY) return "hidden";
  if (y < lastY) return "visible";
  return previous === "static" ? "hidden" : previous;
}
