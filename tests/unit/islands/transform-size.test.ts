import { describe, expect, it } from "vitest";
import { closingMs, openingMs, panelSize } from "../../../islands/transform/transform-size.ts";

describe("the transform panel's size", () => {
  it("is 800 × 310 above 800 px, 580 × 330 above 600 px, full width below", () => {
    expect(panelSize(1280)).toEqual({ width: 800, height: 310 });
    expect(panelSize(801)).toEqual({ width: 800, height: 310 });
    expect(panelSize(800)).toEqual({ width: 580, height: 330 });
    expect(panelSize(725)).toEqual({ width: 580, height: 330 });
    expect(panelSize(601)).toEqual({ width: 580, height: 330 });
    expect(panelSize(600)).toEqual({ width: "full", height: "content" });
    expect(panelSize(375)).toEqual({ width: "full", height: "content" });
  });

  it("opens in 500 ms and closes in 400 ms", () => {
    expect(openingMs).toBe(500);
    expect(closingMs).toBe(400);
  });
});
