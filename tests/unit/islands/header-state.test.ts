import { describe, expect, it } from "vitest";
import { nextHeaderState, stickyThreshold } from "../../../islands/sticky-header/header-state.ts";

describe("the sticky header's state", () => {
  it("stays in the page flow up to 120 px of scroll", () => {
    expect(stickyThreshold).toBe(120);
    expect(nextHeaderState("static", 0, 60)).toBe("static");
    expect(nextHeaderState("static", 60, 120)).toBe("static");
    expect(nextHeaderState("visible", 300, 120)).toBe("static");
  });

  it("hides while the shopper scrolls down past 120 px", () => {
    expect(nextHeaderState("static", 100, 121)).toBe("hidden");
    expect(nextHeaderState("visible", 400, 500)).toBe("hidden");
  });

  it("comes back fixed at the top when the shopper scrolls up", () => {
    expect(nextHeaderState("hidden", 800, 700)).toBe("visible");
  });

  it("keeps its state when the position did not change", () => {
    expect(nextHeaderState("visible", 500, 500)).toBe("visible");
    expect(nextHeaderState("hidden", 500, 500)).toBe("hidden");
  });
});
