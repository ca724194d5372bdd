import { describe, expect, it } from "vitest";
import {
  addSample,
  buttonStep,
  coastStep,
  decayPerFrame,
  dragPosition,
  easedPosition,
  releaseVelocity,
  type Sample,
  stopSpeed,
} from "../../../islands/viewer360/spin.ts";

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

  it("ease out: fast at first, then settle on the target", () => {
    expect(easedPosition(0, 3, 0)).toBe(0);
    expect(easedPosition(0, 3, 175)).toBeGreaterThan(1.5);
    expect(easedPosition(0, 3, 350)).toBe(3);
    expect(easedPosition(0, 3, 1000)).toBe(3);
  });
});
