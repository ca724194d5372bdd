// @vitest-environment happy-dom
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { mount } from "../../islands/transform/transform.ts";
import { panelShift } from "../../islands/transform/transform-size.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

let unmount: (() => void) | undefined;
const html = await exampleHtml("transform");

/** The pattern library's panel, mounted in a window whose motion setting the test chooses. */
function render(reduced = false, left = 0) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: reduced && query.includes("reduce"),
    media: query,
  }));
  document.body.innerHTML = html;
  const details = document.querySelector<HTMLDetailsElement>(
    'details[data-island="transform"]',
  ) as HTMLDetailsElement;
  // This DOM does no layout: the closed button measures 240 × 44, as in a browser.
  details.getBoundingClientRect = () => ({
    x: 0,
    y: 0,
    top: 0,
    left,
    right: left + 240,
    bottom: 44,
    width: 240,
    height: 44,
    toJSON() {},
  });
  unmount = mount(details);
  return {
    details,
    summary: details.querySelector("summary") as HTMLElement,
    close: details.querySelector("[data-transform-close]") as HTMLButtonElement,
  };
}

afterAll(closeExamples);

afterEach(() => {
  unmount?.();
  unmount = undefined;
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("the transform island", () => {
  it("grows from the button into the panel, then says it is open and gives its close button focus", () => {
    vi.useFakeTimers();
    const { details, summary, close } = render();
    expect(close.hidden).toBe(false);
    expect(details.dataset.transformState).toBe("closed");
    summary.click();
    expect(details.open).toBe(true);
    expect(details.dataset.transformState).toBe("opening");
    expect(document.activeElement).toBe(close);
    // No transitionend in this DOM: the island falls back to the transition's own time.
    vi.advanceTimersByTime(650);
    expect(details.dataset.transformState).toBe("open");
    expect(details.style.width).toBe("");
  });

  it("shrinks back on its close button, Escape or the button, and hands focus back", () => {
    vi.useFakeTimers();
    const { details, summary, close } = render();
    summary.click();
    vi.advanceTimersByTime(650);
    close.click();
    expect(details.dataset.transformState).toBe("closing");
    expect(details.open).toBe(true);
    vi.advanceTimersByTime(550);
    expect(details.dataset.transformState).toBe("closed");
    expect(details.open).toBe(false);
    expect(document.activeElement).toBe(summary);

    summary.click();
    vi.advanceTimersByTime(650);
    details.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    vi.advanceTimersByTime(550);
    expect(details.open).toBe(false);
  });

  it("skips the animation for shoppers who ask for reduced motion", () => {
    const { details, summary, close } = render(true);
    summary.click();
    expect(details.dataset.transformState).toBe("open");
    close.click();
    expect(details.dataset.transformState).toBe("closed");
    expect(details.open).toBe(false);
  });

  it("moves the panel sideways when it is wider than the room right of it, and back when it closes", () => {
    vi.useFakeTimers();
    vi.stubGlobal("innerWidth", 820);
    Object.defineProperty(document.documentElement, "clientWidth", { value: 820, configurable: true });
    try {
      // An 800 px panel in a column starting 40 px in: 20 px too far right in an 820 px window.
      const { details, summary, close } = render(false, 40);
      summary.click();
      expect(details.style.width).toBe("800px");
      expect(details.style.getPropertyValue("--transform-shift")).toBe("-28px");
      vi.advanceTimersByTime(650);
      expect(details.style.getPropertyValue("--transform-shift")).toBe("-28px");
      close.click();
      expect(details.style.getPropertyValue("--transform-shift")).toBe("");
    } finally {
      Reflect.deleteProperty(document.documentElement, "clientWidth");
    }
  });
});

describe("a panel whose markup lacks what the island needs", () => {
  it("is left as the server's details, marked failed, and reported once by name", async () => {
    document.body.innerHTML = html;
    document.querySelector(".transform__panel")?.remove();
    const report = vi.fn();
    const hook = {
      kind: "island",
      name: "transform",
      react: false,
      load: () => import("../../islands/transform/transform.ts"),
    } as const;
    await createRuntime([hook], document, report).scan(document);
    const details = document.querySelector('[data-island="transform"]') as HTMLElement;
    expect(details.getAttribute("data-island-state")).toBe("failed");
    expect(details.hasAttribute("data-transform-state")).toBe(false);
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[0]).toContain('"transform"');
    expect(report.mock.calls[0]?.[0]).toContain(".transform__panel");
  });
});

describe("where the open panel stands", () => {
  it("stays put when it fits, and otherwise moves just enough to stay inside the window", () => {
    expect(panelShift(16, 800, 1280)).toBe(0);
    expect(panelShift(16, 800, 820)).toBe(-4);
    // Barely wider than the panel: no room for the usual 8 px from the edge.
    expect(panelShift(16, 800, 801)).toBe(-15);
    expect(panelShift(16, 580, 601)).toBe(-3);
    // Never past the left edge, even when the window is narrower than the panel.
    expect(panelShift(16, 800, 700)).toBe(-16);
  });
});
