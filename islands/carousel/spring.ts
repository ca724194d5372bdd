/**
 * The carousel's spring: what moves it to the selected slide (Flickity's physics with the
 * spec's constants). Per 60 Hz frame, as the shop specifies it:
 *
 *     velocity += (target − position) × attraction
 *     velocity *= 1 − friction
 *     position += velocity
 *
 * Flickity itself (js/animate.js) moves the position before the friction
 * (x += velocity; velocity *= 1 − friction): a 1000 px move is half way after 10 frames
 * instead of 12 and rests after about 1 s instead of 1.9 s. The shop follows the formula
 * above.
 *
 * Positions are in px, velocities in px per 60 Hz frame. No DOM: the slider drives it.
 */

export interface SpringConstants {
  /** Share of the velocity lost each frame (the spec: 0.28). */
  friction: number;
  /** Pull towards the target per px of distance, each frame (the spec: selected attraction 0.025). */
  attraction: number;
}

/** One frame of the spec's formula: the spring's clock. */
export const frameMs = 1000 / 60;

/**
 * Flickity's rest test: a frame is resting when the position, rounded to 1/100 px, did not
 * change; after three resting frames the animation ends.
 */
const restPrecision = 100;
const restFrames = 3;

interface State {
  position: number;
  velocity: number;
}

export interface Spring {
  /** Where it is now, in px. */
  readonly position: number;
  /** The formula's velocity, in px per 60 Hz frame (what position gains each frame). */
  readonly velocity: number;
  readonly target: number;
  /** At rest on its target: nothing left to animate. */
  readonly settled: boolean;
  /** Starts again from here at this speed (where a drag let go), towards the same target. */
  set(position: number, velocity?: number): void;
  /** Heads for another target, keeping its velocity, as a spring does. */
  retarget(target: number): void;
  /** Moves on by this much time, at whatever rate the screen refreshes. */
  advance(ms: number): void;
}

/**
 * Time, not frames, moves the spring, so a 120 Hz or 144 Hz screen shows the path a
 * 60 Hz one shows (Flickity stepped once per animation frame, and so ran twice as fast on
 * 120 Hz). Whole 60 Hz frames run the formula exactly as written, so the path is the
 * spec's to the last digit; between two such frames the position is interpolated in a
 * straight line, so a faster screen still gets a new position on every refresh. A closed
 * form (the step matrix to a fractional power) would be exact between frames too, but it
 * hides the formula and needs the constants to keep the spring overdamped; the straight
 * line differs from it by well under a pixel.
 */
export function createSpring(constants: SpringConstants, position = 0): Spring {
  const keep = 1 - constants.friction;
  let target = position;
  /** The state at the last whole frame, and the one a frame later. */
  let current: State = { position, velocity: 0 };
  let next: State = current;
  /** Time since the last whole frame, 0 … frameMs. */
  let phase = 0;
  let resting = 0;
  let settled = true;

  const step = (s: State): State => {
    let velocity = s.velocity;
    velocity += (target - s.position) * constants.attraction;
    velocity *= keep;
    return { position: s.position + velocity, velocity };
  };
  const restart = (state: State) => {
    current = state;
    next = step(current);
    phase = 0;
    // Counted per target: a count left over from an earlier target could end this move at
    // the turning point of a reversal, far from its slide (Flickity counts per animation).
    resting = 0;
    settled = false;
  };

  const spring: Spring = {
    get position() {
      if (settled) return target;
      return current.position + (next.position - current.position) * (phase / frameMs);
    },
    get velocity() {
      // The formula's velocity as of the last whole frame: what a new target starts from.
      return settled ? 0 : current.velocity;
    },
    get target() {
      return target;
    },
    get settled() {
      return settled;
    },
    set(at, velocity = 0) {
      restart({ position: at, velocity });
    },
    retarget(to) {
      const here = { position: spring.position, velocity: spring.velocity };
      target = to;
      restart(here);
    },
    advance(ms) {
      if (settled) return;
      phase += Math.max(0, ms);
      while (phase >= frameMs) {
        phase -= frameMs;
        const before = current.position;
        current = next;
        if (Math.round(current.position * restPrecision) === Math.round(before * restPrecision)) {
          resting += 1;
        }
        if (resting >= restFrames) {
          // Flickity leaves it where it rested, within about 0.1 px of the slide; landing
          // on the slide itself keeps its edges crisp and the slide wholly "in view".
          settled = true;
          current = next = { position: target, velocity: 0 };
          phase = 0;
          return;
        }
        next = step(current);
      }
    },
  };
  return spring;
}
