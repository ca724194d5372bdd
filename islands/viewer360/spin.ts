/**
 * The 360 viewer's motion, free of the DOM. A position is a fractional index into the
 * frames the screen shows (0 is the first frame, `last` the last one); the picture shows
 * the nearest whole one. Nothing wraps: the viewer stops at both ends, as the spec asks.
 *
 * The pointer sets a target; the shown position eases towards it ("dragged with easing",
 * as threesixty-slider's render loop did), and after release the target keeps the drag's
 * speed for a while, decaying, so the product coasts to a stop. Every step takes the time
 * since the previous one, so a 120 Hz screen moves exactly as a 60 Hz one does.
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

export const frameMs = 1000 / 60;

/**
 * Share of the remaining distance the shown position covers per 60 Hz frame. threesixty-slider
 * covers 10%; with momentum on top that feels sluggish, so the ease is shorter: about 95% of
 * the way in a quarter of a second.
 */
export const followPerFrame = 0.2;
/** Closer than this (a 200th of a frame) the shown position is where it is heading. */
const arrived = 0.005;

/** Where the shown position is `elapsed` ms later, easing exponentially towards `target`. */
export function followStep(position: number, target: number, elapsed: number): number {
  const next = target + (position - target) * (1 - followPerFrame) ** (elapsed / frameMs);
  return Math.abs(target - next) < arrived ? target : next;
}

/** Momentum left per 60 Hz frame after release. */
export const decayPerFrame = 0.92;
/** Below this (positions per ms, about a 40th of a frame per animation frame) the coasting stops. */
export const stopSpeed = 0.0015;

export interface Coast {
  position: number;
  /** positions per ms */
  velocity: number;
  moving: boolean;
}

/**
 * Momentum after release over `elapsed` ms: the speed decays exponentially, and the distance
 * is its exact integral, so splitting a step in two lands on the same spot. Stops dead at
 * either end.
 */
export function coastStep(position: number, velocity: number, elapsed: number, last: number): Coast {
  const kept = decayPerFrame ** (elapsed / frameMs);
  const rate = -Math.log(decayPerFrame) / frameMs;
  const next = position + (velocity * (1 - kept)) / rate;
  if (next <= 0 || next >= last) return { position: clampPosition(next, last), velocity: 0, moving: false };
  const slower = velocity * kept;
  const moving = Math.abs(slower) >= stopSpeed;
  return { position: next, velocity: moving ? slower : 0, moving };
}

export interface Motion {
  /** Shown, fractional. */
  position: number;
  /** Where the pointer, a button or the momentum wants it. */
  target: number;
  /** The target's own speed after release, positions per ms; 0 when not coasting. */
  velocity: number;
}

/** One animation step: the momentum carries the target, the shown position follows it. */
export function motionStep(motion: Motion, elapsed: number, last: number): Motion & { moving: boolean } {
  const coast =
    motion.velocity === 0
      ? { position: motion.target, velocity: 0 }
      : coastStep(motion.target, motion.velocity, elapsed, last);
  const target = clampPosition(coast.position, last);
  const position = clampPosition(followStep(motion.position, target, elapsed), last);
  return { position, target, velocity: coast.velocity, moving: coast.velocity !== 0 || position !== target };
}

/** Buttons turn by about a twelfth of the range (30 degrees), so a few presses go round. */
export function buttonStep(frames: number): number {
  return Math.max(1, Math.round(frames / 12));
}
