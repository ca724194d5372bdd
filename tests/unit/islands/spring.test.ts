import { describe, expect, it } from "vitest";
import { createSpring, frameMs } from "../../../islands/carousel/spring.ts";

/** The spec's constants, written out here rather than imported: the test checks the module against them. */
const spec = { friction: 0.28, attraction: 0.025 };

/**
 * The spec's formula as a literal loop, with Flickity's rest test (position rounded to
 * 1/100 px unchanged in three frames): the positions after frame 0, 1, 2 … and the frame
 * the spring settles on.
 */
function formulaPath(
  from: number,
  target: number,
  velocity = 0,
): { x: number[]; v: number[]; settle: number } {
  const x = [from];
  const v = [velocity];
  let resting = 0;
  for (let n = 1; n < 10_000; n++) {
    let vel = v[n - 1] as number;
    const pos = x[n - 1] as number;
    vel += (target - pos) * 0.025;
    vel *= 1 - 0.28;
    x.push(pos + vel);
    v.push(vel);
    if (Math.round((pos + vel) * 100) === Math.round(pos * 100)) resting++;
    if (resting === 3) return { x, v, settle: n };
  }
  throw new Error("the formula never settled");
}

/** The formula's position at any time: whole frames exactly, a straight line between them. */
function formulaAt(path: number[], ms: number): number {
  const frames = ms / frameMs;
  const n = Math.floor(frames + 1e-9);
  const a = path[Math.min(n, path.length - 1)] as number;
  const b = path[Math.min(n + 1, path.length - 1)] as number;
  return a + (b - a) * Math.max(0, frames - n);
}

function moving(from: number, to: number) {
  const spring = createSpring(spec, from);
  spring.retarget(to);
  return spring;
}

/** Runs a spring with these frame durations, returning [time, position] after each. */
function run(spring: ReturnType<typeof createSpring>, frames: number[]): [number, number][] {
  let time = 0;
  return frames.map((ms) => {
    spring.advance(ms);
    time += ms;
    return [time, spring.position];
  });
}

describe("the carousel's spring at 60 Hz", () => {
  it("follows the spec's formula frame by frame, to the frame it settles on", () => {
    const { x, settle } = formulaPath(0, 400);
    expect(settle, "a one-slide move settles after about 1.6 s").toBeGreaterThan(80);
    const spring = moving(0, 400);
    for (let n = 1; n < settle; n++) {
      spring.advance(frameMs);
      expect(spring.position, `frame ${n}`).toBeCloseTo(x[n] as number, 9);
      expect(spring.settled, `frame ${n}`).toBe(false);
    }
    spring.advance(frameMs);
    expect(spring.settled).toBe(true);
    expect(spring.position).toBe(400);
    expect(spring.velocity).toBe(0);
  });

  it("matches hand-worked first frames of a 400 px move: 7.2, 19.4544, 35.1273888 px", () => {
    // v1 = (0 + 400 × 0.025) × 0.72 = 7.2
    // v2 = (7.2 + 392.8 × 0.025) × 0.72 = 12.2544, x2 = 19.4544
    // v3 = (12.2544 + 380.5456 × 0.025) × 0.72 = 15.6729888
    const spring = moving(0, 400);
    const [first, second, third] = run(spring, [frameMs, frameMs, frameMs]).map(([, p]) => p);
    expect(first).toBeCloseTo(7.2, 9);
    expect(second).toBeCloseTo(19.4544, 9);
    expect(third).toBeCloseTo(35.1273888, 9);
  });

  it("glides from rest without overshooting: every frame closer, never past the slide", () => {
    for (const distance of [37, 300, -800, 2000]) {
      const { x } = formulaPath(0, distance);
      const spring = moving(0, distance);
      let before = 0;
      while (!spring.settled) {
        spring.advance(frameMs);
        const gone = spring.position / distance;
        expect(gone).toBeGreaterThanOrEqual(before);
        expect(gone).toBeLessThanOrEqual(1);
        before = gone;
      }
      expect(Math.max(...x.map((p) => p / distance))).toBeLessThanOrEqual(1);
    }
  });
});

describe("the spring on other screens", () => {
  const { x } = formulaPath(0, 600);

  it("at 120 Hz passes every 60 Hz frame's position, and settles at the same time", () => {
    const at60 = moving(0, 600);
    const at120 = moving(0, 600);
    let n = 0;
    while (!at60.settled) {
      at60.advance(frameMs);
      const [half, whole] = run(at120, [frameMs / 2, frameMs / 2]).map(([, p]) => p) as [number, number];
      n++;
      expect(whole, `frame ${n}`).toBeCloseTo(at60.position, 9);
      expect(at120.settled).toBe(at60.settled);
      if (at60.settled) break;
      // Between two of them, on the way from one to the next.
      const previous = x[n - 1] as number;
      expect(half).toBeGreaterThanOrEqual(Math.min(previous, whole));
      expect(half).toBeLessThanOrEqual(Math.max(previous, whole));
    }
  });

  it("at 144 Hz and at uneven frame times is where the 60 Hz path is at that moment", () => {
    const at144 = run(
      moving(0, 600),
      Array.from({ length: 144 }, () => 1000 / 144),
    );
    for (const [time, position] of at144.filter((_, i) => i % 12 === 11)) {
      expect(position, `${time.toFixed(1)} ms`).toBeCloseTo(formulaAt(x, time), 6);
    }
    // A busy page: frames late, early and dropped.
    const uneven = [7, 9.5, 16.7, 3.1, 41.2, 11.1, 0, 16.6, 25, 8.3, 33.4, 16.7, 5, 60, 12.5];
    for (const [time, position] of run(moving(0, 600), uneven)) {
      expect(position, `${time.toFixed(1)} ms`).toBeCloseTo(formulaAt(x, time), 6);
    }
  });

  it("after a long pause (a hidden tab) lands on its target instead of running on", () => {
    const spring = moving(0, 600);
    spring.advance(50);
    spring.advance(10_000);
    expect(spring.settled).toBe(true);
    expect(spring.position).toBe(600);
  });
});

describe("a new target while the spring moves", () => {
  it("keeps the velocity, and goes on by the formula towards the new target", () => {
    const { x, v } = formulaPath(0, 400);
    const spring = moving(0, 400);
    for (let n = 0; n < 10; n++) spring.advance(frameMs);
    expect(spring.velocity).toBeCloseTo(v[10] as number, 9);

    spring.retarget(-200);
    expect(spring.position, "no jump").toBeCloseTo(x[10] as number, 9);
    expect(spring.velocity, "no loss of speed").toBeCloseTo(v[10] as number, 9);
    expect(spring.target).toBe(-200);

    const turning = formulaPath(x[10] as number, -200, v[10] as number);
    for (let n = 1; n <= 20; n++) {
      spring.advance(frameMs);
      expect(spring.position, `frame ${n} after`).toBeCloseTo(turning.x[n] as number, 9);
    }
    // Still carried forward for a while before it turns: the speed it had was kept.
    expect(turning.x[1]).toBeGreaterThan(x[10] as number);
    expect(Math.min(...turning.x.slice(0, 20))).toBeLessThan(x[10] as number);
  });

  it("keeps the velocity when the target changes between two frames", () => {
    const spring = moving(0, 400);
    spring.advance(frameMs * 10.5);
    const here = spring.position;
    const speed = spring.velocity;
    spring.retarget(800);
    expect(spring.position).toBeCloseTo(here, 9);
    expect(spring.velocity).toBeCloseTo(speed, 9);
    spring.advance(frameMs);
    expect(spring.position).toBeCloseTo(here + (speed + (800 - here) * 0.025) * 0.72, 9);
  });

  it("starts again from a thrown position and speed (a drag let go)", () => {
    const spring = createSpring(spec, 0);
    spring.set(120, 15);
    spring.retarget(300);
    const { x } = formulaPath(120, 300, 15);
    for (let n = 1; n <= 5; n++) {
      spring.advance(frameMs);
      expect(spring.position).toBeCloseTo(x[n] as number, 9);
    }
  });
});

describe("when the spring settles", () => {
  it("rests after three frames that moved it less than 1/100 px, landing exactly on the target", () => {
    const spring = moving(0, 0.004);
    spring.advance(frameMs);
    spring.advance(frameMs);
    expect(spring.settled).toBe(false);
    spring.advance(frameMs);
    expect(spring.settled).toBe(true);
    expect(spring.position).toBe(0.004);
  });

  it("does not rest while it still moves visibly, only within a tenth of a pixel", () => {
    const { x, settle } = formulaPath(0, 1000);
    const spring = moving(0, 1000);
    for (let n = 1; n < settle; n++) spring.advance(frameMs);
    expect(spring.settled).toBe(false);
    const last = x[settle - 1] as number;
    expect(1000 - last).toBeGreaterThan(0);
    expect(1000 - last).toBeLessThan(0.1);
    spring.advance(frameMs);
    expect(spring.settled).toBe(true);
    spring.advance(frameMs * 10);
    expect(spring.position, "resting: time no longer moves it").toBe(1000);
  });

  it("counts resting frames afresh for each target", () => {
    const spring = moving(0, 0.004);
    spring.advance(frameMs * 2);
    spring.retarget(-0.004);
    spring.advance(frameMs);
    expect(spring.settled, "two resting frames before the new target do not count").toBe(false);
    spring.advance(frameMs * 2);
    expect(spring.settled).toBe(true);
    expect(spring.position).toBe(-0.004);
  });
});
