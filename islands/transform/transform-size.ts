/**
 * The transform panel's size (spec): 800 × 310 px when the window is wider than 800 px,
 * 580 × 330 px when wider than 600 px, and the full width of its column below, as tall
 * as its content. The CSS (widgets.css: .transform) holds the same numbers. Just above
 * 800 (or 600) px the page's column is narrower than the panel: the panel then overflows
 * its column, moved sideways (panelShift) so it stays inside the window.
 */
export interface PanelSize {
  width: number | "full";
  height: number | "content";
}

export function panelSize(windowWidth: number): PanelSize {
  if (windowWidth > 800) return { width: 800, height: 310 };
  if (windowWidth > 600) return { width: 580, height: 330 };
  return { width: "full", height: "content" };
}

/** Milliseconds, as the CSS transitions of [data-transform-state="opening|closing"] say. */
export const openingMs = 500;
export const closingMs = 400;

/**
 * How far (px, negative is to the left) an open panel moves so that it stays inside the
 * window: 0 when it fits where it is. It keeps up to `margin` px from the window's edges,
 * less when the window is barely wider than the panel (801 px for an 800 px panel).
 */
export function panelShift(left: number, width: number, windowWidth: number, margin = 8): number {
  const edge = Math.max(0, Math.min(margin, (windowWidth - width) / 2));
  let shift = 0;
  if (left + width > windowWidth - edge) shift = windowWidth - edge - (left + width);
  if (left + shift < edge) shift = edge - left;
  return Math.round(shift);
}
