import { phoneQuery, tabletQuery } from "../../server/domain/breakpoints.ts";
import { type FramePlan, framePlan } from "../../server/domain/viewer-frames.ts";

/** The widths at which framePlan changes its answer. */
const breakpoints = [phoneQuery, tabletQuery];

export function samePlan(a: FramePlan, b: FramePlan): boolean {
  return a.size === b.size && a.frames.length === b.frames.length;
}

/**
 * Tells when the window crosses one of the breakpoints (a phone turned sideways, a window
 * dragged wider), with the plan for its new width. Media query listeners fire only at the
 * crossing, not on every pixel of a resize.
 */
export function watchFramePlan(view: Window, onChange: (plan: FramePlan) => void): () => void {
  const queries = breakpoints.flatMap((query) => (view.matchMedia ? [view.matchMedia(query)] : []));
  const changed = () => onChange(framePlan(view.innerWidth));
  // Optional calls: a browser without MediaQueryList events keeps the plan it started with.
  for (const query of queries) query.addEventListener?.("change", changed);
  return () => {
    for (const query of queries) query.removeEventListener?.("change", changed);
  };
}

/** Where frame `frame` (1..36) sits among the frames a plan loads, or the nearest angle it has. */
export function nearestFrameIndex(frames: readonly number[], frame: number): number {
  let best = 0;
  frames.forEach((n, i) => {
    if (Math.abs(n - frame) < Math.abs((frames[best] ?? 0) - frame)) best = i;
  });
  return best;
}
