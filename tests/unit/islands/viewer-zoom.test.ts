import { describe, expect, it } from "vitest";
import {
  clampView,
  maxZoom,
  minZoom,
  pinchScale,
  unzoomed,
  wheelScale,
  zoomAt,
  zoomTransform,
} from "../../../islands/viewer360/zoom.ts";

const size = { x: 400, y: 400 };
const centre = { x: 0, y: 0 };

describe("zooming into the 360 viewer's frame", () => {
  it("zooms between 1× and 3×", () => {
    expect(minZoom).toBe(1);
    expect(maxZoom).toBe(3);
    expect(zoomAt(unzoomed, 5, centre, size).scale).toBe(3);
    expect(zoomAt({ scale: 2, x: 0, y: 0 }, 0.2, centre, size)).toEqual(unzoomed);
  });

  it("keeps the spot under the pointer where it is", () => {
    const point = { x: 100, y: -50 };
    const view = zoomAt(unzoomed, 2, point, size);
    // The picture's spot that was under the pointer (100, -50 from the centre) is still under it.
    expect(view.x + 100 * view.scale).toBe(100);
    expect(view.y - 50 * view.scale).toBe(-50);
    expect(view).toEqual({ scale: 2, x: -100, y: 50 });
    // Zooming back out at the same spot returns to the start.
    expect(zoomAt(view, 1, point, size)).toEqual(unzoomed);
  });

  it("never lets the zoomed picture leave its box", () => {
    expect(clampView({ scale: 2, x: 500, y: -500 }, size)).toEqual({ scale: 2, x: 200, y: -200 });
    expect(clampView({ scale: 1, x: 30, y: 30 }, size)).toEqual(unzoomed);
  });

  it("zooms about 40% per mouse-wheel notch, in for up and out for down, within the limits", () => {
    expect(wheelScale(1, -100)).toBeCloseTo(Math.exp(1 / 3));
    expect(wheelScale(2, 100)).toBeCloseTo(2 * Math.exp(-1 / 3));
    expect(wheelScale(1, 100)).toBe(1);
    expect(wheelScale(3, -100)).toBe(3);
    // A fast wheel's huge delta counts as one notch, not a jump to the limit.
    expect(wheelScale(1, -1000)).toBeCloseTo(wheelScale(1, -100));
  });

  it("follows two fingers: spread twice as far apart, twice the zoom", () => {
    expect(pinchScale(1, 100, 200)).toBe(2);
    expect(pinchScale(2, 100, 50)).toBe(1);
    expect(pinchScale(1, 100, 1000)).toBe(3);
    expect(pinchScale(1.5, 0, 40)).toBe(1.5);
  });

  it("leaves an unzoomed picture without a transform", () => {
    expect(zoomTransform(unzoomed)).toBeUndefined();
    expect(zoomTransform({ scale: 2, x: -10, y: 5 })).toBe("translate(-10px, 5px) scale(2)");
  });
});
