/**
 * Zooming into the shown frame, free of the DOM. A view is a scale around the picture's
 * centre plus a shift in px; the shift is kept so the picture always covers its box, so a
 * zoomed picture can be moved to each of its edges but never off them.
 */

export interface ZoomView {
  scale: number;
  x: number;
  y: number;
}

export interface Point {
  x: number;
  y: number;
}

export const minZoom = 1;
export const maxZoom = 3;
/** One press of a zoom button or the + and − keys. */
export const zoomStep = 0.5;
export const unzoomed: ZoomView = { scale: 1, x: 0, y: 0 };

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

export function clampScale(scale: number): number {
  return clamp(scale, minZoom, maxZoom);
}

/** Keeps the shift within what the scale has added around the box of `size` px. */
export function clampView(view: ZoomView, size: Point): ZoomView {
  const scale = clampScale(view.scale);
  const spareX = ((scale - 1) * size.x) / 2;
  const spareY = ((scale - 1) * size.y) / 2;
  // + 0 turns -0 into 0, so an unzoomed view equals `unzoomed`.
  return { scale, x: clamp(view.x, -spareX, spareX) + 0, y: clamp(view.y, -spareY, spareY) + 0 };
}

/**
 * The view at `scale`, with the picture's spot under `point` (px from the box's centre)
 * staying under it: zooming at the pointer or between two fingers zooms into what is there.
 */
export function zoomAt(view: ZoomView, scale: number, point: Point, size: Point): ZoomView {
  const next = clampScale(scale);
  const ratio = next / view.scale;
  return clampView(
    { scale: next, x: point.x - (point.x - view.x) * ratio, y: point.y - (point.y - view.y) * ratio },
    size,
  );
}

/**
 * The scale after a ctrl+wheel turn (also what a trackpad pinch sends). One mouse-wheel
 * notch (deltaY 100) zooms by about 40%; a trackpad's small deltas zoom smoothly.
 */
export function wheelScale(scale: number, deltaY: number): number {
  return clampScale(scale * Math.exp(-clamp(deltaY, -100, 100) / 300));
}

/** The scale while two fingers pinch: the pinch's start scale times how far they spread. */
export function pinchScale(startScale: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return clampScale(startScale);
  return clampScale((startScale * distance) / startDistance);
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

export function midpoint(a: Point, b: Point): Point {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

/** The CSS transform for a view; none unzoomed, so the plain picture keeps its crisp rendering. */
export function zoomTransform(view: ZoomView): string | undefined {
  if (view.scale === 1 && view.x === 0 && view.y === 0) return undefined;
  return `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
}
