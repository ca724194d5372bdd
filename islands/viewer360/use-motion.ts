import { type RefObject, useEffect, useRef, useState } from "react";
import { clampPosition, type Motion, motionStep, stopSpeed } from "./spin.ts";

/**
 * Read at each use, not once: the setting can change while the page is open. The viewer
 * has no autoplay (nothing turns unless the shopper turns it); this only decides whether a
 * shopper's own turn eases and coasts or jumps.
 */
export const prefersReducedMotion = (): boolean =>
  window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

export interface MotionControls {
  /** The whole frame shown (index into the plan's frames). */
  index: number;
  /** Where the motion is now; read by gestures when they start. */
  current: () => Motion;
  /** Shows `position` at once and stops any easing or coasting. */
  jumpTo: (position: number) => void;
  /** Eases towards `target` (at once under reduced motion). */
  aim: (target: number) => void;
  /** Lets the target coast on at `velocity` positions per ms (not under reduced motion). */
  fling: (velocity: number) => void;
  /** Stops where it is shown now: a finger catching a turning product. */
  hold: () => void;
}

/** The viewer's one animation loop: runs only while something moves, one step per frame. */
function motionLoop(last: RefObject<number>, show: (index: number) => void) {
  let motion: Motion = { position: 0, target: 0, velocity: 0 };
  let frame: number | undefined;

  const cancel = () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    frame = undefined;
  };
  const run = () => {
    if (frame !== undefined) return;
    let previous: number | undefined;
    const tick = (now: number) => {
      const elapsed = previous === undefined ? 1000 / 60 : now - previous;
      previous = now;
      const { moving, ...next } = motionStep(motion, elapsed, last.current);
      motion = next;
      show(Math.round(motion.position));
      frame = moving ? requestAnimationFrame(tick) : undefined;
    };
    frame = requestAnimationFrame(tick);
  };
  const jumpTo = (position: number) => {
    cancel();
    const p = clampPosition(position, last.current);
    motion = { position: p, target: p, velocity: 0 };
    show(Math.round(p));
  };

  return {
    cancel,
    current: () => motion,
    jumpTo,
    aim: (target: number) => {
      if (prefersReducedMotion()) return jumpTo(target);
      motion = { ...motion, target: clampPosition(target, last.current), velocity: 0 };
      run();
    },
    fling: (velocity: number) => {
      if (prefersReducedMotion() || Math.abs(velocity) < stopSpeed) return;
      motion = { ...motion, velocity };
      run();
    },
    hold: () => jumpTo(motion.position),
  };
}

/** The motion of the viewer whose plan's last frame index is `last`; the controls never change. */
export function useMotion(last: number): MotionControls {
  const [index, setIndex] = useState(0);
  const lastRef = useRef(last);
  lastRef.current = last;
  const [{ cancel, ...controls }] = useState(() => motionLoop(lastRef, setIndex));
  useEffect(() => cancel, [cancel]);
  return { index, ...controls };
}
