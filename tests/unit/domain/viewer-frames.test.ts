import { describe, expect, it } from "vitest";
import {
  frameCount,
  framePlan,
  frameUrl,
  isFrameNumber,
  isFrameSize,
} from "../../../server/domain/viewer-frames.ts";

const odd = Array.from({ length: 18 }, (_, i) => 2 * i + 1);

describe("which 360 frames a screen loads", () => {
  it("on a desktop screen: all 36 frames at 720 px", () => {
    expect(framePlan(1280)).toEqual({ size: 720, frames: Array.from({ length: 36 }, (_, i) => i + 1) });
    expect(framePlan(726).frames).toHaveLength(frameCount);
  });

  it("on a tablet: every second frame at 720 px", () => {
    expect(framePlan(600)).toEqual({ size: 720, frames: odd });
    expect(framePlan(725)).toEqual({ size: 720, frames: odd });
    expect(framePlan(481).size).toBe(720);
  });

  it("on a small screen: every second frame at 320 px", () => {
    expect(framePlan(375)).toEqual({ size: 320, frames: odd });
    expect(framePlan(480)).toEqual({ size: 320, frames: odd });
  });
});

describe("a frame's address", () => {
  it("is on the shop itself when no image host is set", () => {
    expect(frameUrl("", "photobook-exclusive-landscape", 720, 7, "1a2b3c4d")).toBe(
      "/pages/productpage/360/photobook-exclusive-landscape/720/7.jpg?v=1a2b3c4d",
    );
  });

  it("is on the image host when one is set", () => {
    expect(frameUrl("https://images.example.nl", "canvas-square", 320, 36, "0")).toBe(
      "https://images.example.nl/pages/productpage/360/canvas-square/320/36.jpg?v=0",
    );
  });

  it("knows the sizes and frame numbers that exist", () => {
    expect([320, 720].every(isFrameSize)).toBe(true);
    expect([0, 480, 1080].some(isFrameSize)).toBe(false);
    expect(isFrameNumber(1) && isFrameNumber(36)).toBe(true);
    expect([0, 37, 1.5, Number.NaN].some(isFrameNumber)).toBe(false);
  });
});
