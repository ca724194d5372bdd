import { describe, expect, it } from "vitest";
import {
  needsTouch,
  sessionEnd,
  sessionHolds,
  signInBackOff,
  signInDelayMs,
  touchEveryMs,
} from "../../../server/domain/session-rules.ts";

const hour = 3_600_000;
const lifetimes = { idleMs: 24 * hour, absoluteMs: 7 * 24 * hour };
const signedIn = new Date("2026-11-01T10:00:00Z");
const at = (hours: number) => new Date(signedIn.getTime() + hours * hour);

describe("a session", () => {
  it("holds while it is used within the idle lifetime", () => {
    const session = { createdAt: signedIn, lastSeenAt: at(30) };
    expect(sessionHolds(session, at(53), lifetimes)).toBe(true);
    expect(sessionHolds(session, at(54), lifetimes)).toBe(false);
    expect(sessionEnd(session, lifetimes)).toEqual(at(54));
  });

  it("ends at its absolute end however busy it is", () => {
    const busy = { createdAt: signedIn, lastSeenAt: at(7 * 24 - 1) };
    expect(sessionHolds(busy, at(7 * 24 - 0.01), lifetimes)).toBe(true);
    expect(sessionHolds(busy, at(7 * 24), lifetimes)).toBe(false);
    expect(sessionEnd(busy, lifetimes)).toEqual(at(7 * 24));
  });

  it("writes its last use only every few minutes", () => {
    const session = { createdAt: signedIn, lastSeenAt: signedIn };
    expect(needsTouch(session, new Date(signedIn.getTime() + touchEveryMs - 1))).toBe(false);
    expect(needsTouch(session, new Date(signedIn.getTime() + touchEveryMs))).toBe(true);
  });
});

describe("the sign-in back-off", () => {
  it("lets the first failures through at once, then doubles the wait up to its longest", () => {
    const waits = Array.from({ length: 10 }, (_, failures) => signInDelayMs(failures));
    expect(waits).toEqual([0, 0, 0, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000]);
    expect(signInBackOff.perAccountAndClient).toBeLessThan(signInBackOff.perClient);
    // The ceiling from everywhere is far above what one client may try for the account.
    expect(signInBackOff.perAccount).toBeGreaterThanOrEqual(5 * signInBackOff.perAccountAndClient);
  });
});
