/**
 * The 360 viewer's motion, free of the DOM. A position is a fractional index into the
 * frames the screen shows (0 is the first frame, `last` the last one); the picture shows
 * the nearest whole one. Nothing wraps: the viewer stops at both ends, as the spec asks.
 */

export function clampPosition(position: number, last: number): number {
  return Math.min(last, Math.max(0, position));
}

/** One drag across the viewer's whole width turns through the whole range. */
export function dragPosition(start: number, dx: number, width: number, last: number): number {
  if (width <= 0) return clampPosition(start, last);
  return clampPosition(start + (dx / width) * last, last);
}

export interface Sample {
  /** ms */
  time: number;
  /** px */
  x: number;
}

/** Release speed is measured over this much of the drag's end, so an earlier flick does not count. */
export const sampleWindow = 100;

export function addSample(samples: readonly Sample[], sample: Sample): Sample[] {
  return [...samples.filter((s) => sample.time - s.time <= sampleWindow), sample];
}

/** Pointer speed in px/ms at release; 0 when the pointer rested before letting go. */
export function releaseVelocity(samples: readonly Sample[], now: number): number {
  const recent = samples.filter((s) => now - s.time <= sampleWindow);
  const first = recent[0];
  const latest = recent[recent.length - 1];
  if (!first || !latest || latest.time <= first.time) return 0;
  return (latest.x - first.x) / (latest.time - first.time);
}

/** Per 60 Hz animation frame; expressed per ms below so a 120 Hz screen coasts just as far. */
export const decayPerFrame = 0.92;
const frameMs = 1000 / 60;
/** Below this (positions per ms, about a 40th of a frame per animation frame) the turning stops. */
export const stopSpeed = 0.0015;

export interface Coast {
  position: number;
  /** positions per ms */
  velocity: number;
  moving: boolean;
}

/** One animation step of momentum after release: slows down, and stops dead at either end. */
export function coastStep(position: number, velocity: number, elapsed: number, last: number): Coast {
  const next = position + velocity * elapsed;
  if (next <= 0 || next >= last) return { position: clampPosition(next, last), velocity: 0, moving: false };
  const slower = velocity * decayPerFrame ** (elapsed / frameMs);
  return { position: next, velocity: slower, moving: Math.abs(slower) >= stopSpeed };
}

/** Buttons turn by about a twelfth of the range (30 degrees), so a few presses go round. */
export function buttonStep(frames: number): number {
  return Math.max(1, Math.round(frames / 12));
}

export const easeDuration = 350;

function easeOutCubic(t: number): number {
  return 1 - (1 - t) ** 3;
}

/** Where an eased button turn from `from` to `to` is after `elapsed` ms. */
export function easedPosition(from: number, to: number, elapsed: number, duration = easeDuration): number {
  if (elapsed >= duration) return to;
  return from + (to - from) * easeOutCubic(Math.max(0, elapsed) / duration);
}
