import { describe, expect, it } from "vitest";
import {
  addSample,
  buttonStep,
  coastStep,
  decayPerFrame,
  dragPosition,
  followPerFrame,
  followStep,
  type Motion,
  motionStep,
  releaseVelocity,
  type Sample,
  stopSpeed,
} from "../../../islands/viewer360/spin.ts";
import { dragDirection } from "../../../islands/viewer360/use-gestures.ts";

const last = 35;
const width = 700;
const frame = 1000 / 60;

/** Coasts at 60 Hz until it stops; returns every position on the way. */
function coastAll(position: number, velocity: number): number[] {
  const positions: number[] = [];
  let state = { position, velocity, moving: true };
  for (let i = 0; state.moving && i < 10_000; i++) {
    state = coastStep(state.position, state.velocity, frame, last);
    positions.push(state.position);
  }
  expect(state.moving).toBe(false);
  return positions;
}

describe("dragging the 360 viewer", () => {
  it("turns through the whole range in one drag across the viewer", () => {
    expect(dragPosition(0, width, width, last)).toBe(last);
    expect(dragPosition(0, width / 2, width, last)).toBe(last / 2);
    expect(dragPosition(20, -width / 7, width, last)).toBe(15);
  });

  it("stops at the first and the last frame instead of going round", () => {
    expect(dragPosition(3, -width, width, last)).toBe(0);
    expect(dragPosition(30, width * 2, width, last)).toBe(last);
  });

  it("does not move when the viewer has no width yet", () => {
    expect(dragPosition(4, 100, 0, last)).toBe(4);
  });
});

describe("letting go of the 360 viewer", () => {
  it("measures the speed over the last 100 ms of the drag", () => {
    let samples: Sample[] = [];
    for (const [time, x] of [
      [0, 0],
      [50, 200],
      [100, 210],
      [150, 220],
      [200, 230],
    ] as const) {
      samples = addSample(samples, { time, x });
    }
    expect(samples.map((s) => s.time)).toEqual([100, 150, 200]);
    expect(releaseVelocity(samples, 200)).toBeCloseTo(0.2);
  });

  it("does not fling when the pointer rested before it let go", () => {
    const samples = [
      { time: 0, x: 0 },
      { time: 40, x: 300 },
    ];
    expect(releaseVelocity(samples, 400)).toBe(0);
  });

  it("keeps turning after a flick, slower each frame, then stops", () => {
    const positions = coastAll(10, 0.02);
    const steps = positions.map((p, i) => p - (positions[i - 1] ?? 10));
    expect(steps[1] as number).toBeCloseTo((steps[0] as number) * decayPerFrame);
    expect(steps.every((s, i) => i === 0 || s < (steps[i - 1] as number))).toBe(true);
    expect(positions.at(-1) as number).toBeGreaterThan(12);
    expect(positions.at(-1) as number).toBeLessThan(last);
  });

  it("slows down the same on a 120 Hz screen", () => {
    const at60 = coastStep(10, 0.02, frame, last);
    const half = coastStep(10, 0.02, frame / 2, last);
    const at120 = coastStep(half.position, half.velocity, frame / 2, last);
    expect(at120.velocity).toBeCloseTo(at60.velocity, 6);
  });

  it("stops dead at the last frame when the flick would carry it further, and never wraps", () => {
    const positions = coastAll(30, 0.05);
    expect(positions.at(-1)).toBe(last);
    expect(Math.max(...positions)).toBe(last);
  });

  it("stops dead at the first frame when flicked backwards", () => {
    const positions = coastAll(5, -0.05);
    expect(positions.at(-1)).toBe(0);
    expect(Math.min(...positions)).toBe(0);
  });

  it("stops by itself once it is slow", () => {
    expect(coastStep(10, stopSpeed * 1.01, frame, last).moving).toBe(false);
  });
});

describe("the 360 viewer's buttons", () => {
  it("turn by about 30 degrees: three frames of 36, two of 18", () => {
    expect(buttonStep(36)).toBe(3);
    expect(buttonStep(18)).toBe(2);
    expect(buttonStep(4)).toBe(1);
  });
});

/** Runs the motion at `hz` until it rests; returns every shown position on the way. */
function runMotion(start: Motion, hz = 60): number[] {
  const positions: number[] = [];
  let motion = start;
  for (let i = 0; i < 10_000; i++) {
    const next = motionStep(motion, 1000 / hz, last);
    motion = next;
    positions.push(next.position);
    if (!next.moving) return positions;
  }
  throw new Error("the motion never came to rest");
}

describe("the shown frame following the pointer", () => {
  it("covers a fixed share of the way per 60 Hz frame, not the whole way at once", () => {
    const next = followStep(0, 10, frame);
    expect(next).toBeCloseTo(10 * followPerFrame);
    expect(followStep(next, 10, frame)).toBeCloseTo(10 * (1 - (1 - followPerFrame) ** 2));
  });

  it("eases the same on a 120 Hz screen: two half steps land where one whole step does", () => {
    const whole = followStep(3, 20, frame);
    const halves = followStep(followStep(3, 20, frame / 2), 20, frame / 2);
    expect(halves).toBeCloseTo(whole, 10);
  });

  it("arrives exactly, in about a quarter of a second", () => {
    const positions = runMotion({ position: 0, target: 10, velocity: 0 });
    expect(positions.at(-1)).toBe(10);
    expect(positions.length * frame).toBeGreaterThan(200);
    expect(positions.length * frame).toBeLessThan(600);
    // Never overshoots: an exponential ease only approaches.
    expect(Math.max(...positions)).toBe(10);
  });

  it("takes as long on a 120 Hz screen as on a 60 Hz one", () => {
    const at60 = runMotion({ position: 0, target: 10, velocity: 0 }, 60).length / 60;
    const at120 = runMotion({ position: 0, target: 10, velocity: 0 }, 120).length / 120;
    expect(Math.abs(at120 - at60)).toBeLessThan(2 / 60);
  });
});

describe("momentum after letting go, with the ease on top", () => {
  it("coasts on past where the pointer let go, then rests", () => {
    const positions = runMotion({ position: 9, target: 10, velocity: 0.02 });
    expect(positions.at(-1) as number).toBeGreaterThan(12);
    expect(positions.at(-1) as number).toBeLessThan(last);
    // Rests on the coasting target, and never backs up on the way.
    expect(positions.every((p, i) => i === 0 || p >= (positions[i - 1] as number))).toBe(true);
  });

  it("coasts the same distance on a 120 Hz screen", () => {
    const at60 = runMotion({ position: 10, target: 10, velocity: 0.02 }, 60).at(-1) as number;
    const at120 = runMotion({ position: 10, target: 10, velocity: 0.02 }, 120).at(-1) as number;
    // Apart from where the last step falls when it drops below the stop speed: a few hundredths of a frame.
    expect(at60 - 10).toBeGreaterThan(3);
    expect(Math.abs(at120 - at60)).toBeLessThan(0.05);
  });

  it("stops at the last frame however hard the flick, and never wraps to the first", () => {
    const positions = runMotion({ position: 30, target: 33, velocity: 0.5 });
    expect(positions.at(-1)).toBe(last);
    expect(Math.max(...positions)).toBe(last);
    expect(Math.min(...positions)).toBeGreaterThanOrEqual(30);
  });

  it("stops at the first frame when flicked backwards", () => {
    const positions = runMotion({ position: 4, target: 2, velocity: -0.5 });
    expect(positions.at(-1)).toBe(0);
    expect(Math.min(...positions)).toBe(0);
    expect(Math.max(...positions)).toBeLessThanOrEqual(4);
  });

  it("keeps a target beyond the ends inside them", () => {
    expect(motionStep({ position: 35, target: 40, velocity: 0 }, frame, last).target).toBe(last);
    expect(motionStep({ position: 0, target: -4, velocity: 0 }, frame, last).position).toBe(0);
  });

  it("rests once nothing moves", () => {
    expect(motionStep({ position: 7, target: 7, velocity: 0 }, frame, last).moving).toBe(false);
  });
});

describe("telling a turn from a page scroll", () => {
  it("waits until the pointer has moved a few pixels", () => {
    expect(dragDirection(3, -4)).toBeUndefined();
  });

  it("turns on a sideways move and leaves an upright one to the page", () => {
    expect(dragDirection(12, 4)).toBe("sideways");
    expect(dragDirection(-12, 4)).toBe("sideways");
    expect(dragDirection(4, 12)).toBe("upright");
    expect(dragDirection(-3, -20)).toBe("upright");
  });
});
