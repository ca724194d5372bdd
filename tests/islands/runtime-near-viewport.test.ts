// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import type { HookDefinition } from "../../islands/runtime/types.ts";
import { FakeObserver } from "../support/fake-intersection-observer.ts";

const flush = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  document.body.innerHTML = "";
  FakeObserver.all = [];
  vi.unstubAllGlobals();
});

function heavyIsland(): HookDefinition & { kind: "island" } {
  return {
    kind: "island",
    name: "heavy",
    react: true,
    nearViewport: "250px",
    load: vi.fn(async () => ({ mount: vi.fn(() => undefined) })),
  };
}

describe("an island that waits for the viewport", () => {
  it("downloads nothing while the shopper has not scrolled near it", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    document.body.innerHTML = `<div data-island="heavy"></div>`;
    const hook = heavyIsland();
    await createRuntime([hook], document, () => {}).scan(document);
    expect(hook.load).not.toHaveBeenCalled();
    expect(document.querySelector("div")?.getAttribute("data-island-state")).toBe("waiting");
    expect(FakeObserver.all[0]?.options.rootMargin).toBe("250px");
  });

  it("mounts once it comes near, and only the element that came near", async () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    document.body.innerHTML = `<div data-island="heavy" id="a"></div><div data-island="heavy" id="b"></div>`;
    const hook = heavyIsland();
    await createRuntime([hook], document, () => {}).scan(document);
    const a = document.getElementById("a") as HTMLElement;
    FakeObserver.all[0]?.near(a);
    await flush();
    expect(hook.load).toHaveBeenCalledTimes(1);
    expect(a.getAttribute("data-island-state")).toBe("mounted");
    expect(document.getElementById("b")?.getAttribute("data-island-state")).toBe("waiting");
    expect(FakeObserver.all[0]?.targets.has(a)).toBe(false);
  });

  it("on a page prerendered ahead of a click, mounts the islands in or near the first screen at once", async () => {
    // A prerendered page runs no rendering updates, so its observers report nothing before activation.
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    Object.defineProperty(document, "prerendering", { value: true, configurable: true });
    try {
      document.body.innerHTML = `<div data-island="heavy" id="top"></div><div data-island="heavy" id="below"></div>`;
      const at = (id: string, top: number) =>
        vi.spyOn(document.getElementById(id) as HTMLElement, "getBoundingClientRect").mockReturnValue({
          top,
          bottom: top + 400,
          left: 0,
          right: 800,
          width: 800,
          height: 400,
        } as DOMRect);
      // The window is 768 px high in happy-dom: 900 is within the 250 px margin, 3000 is not.
      at("top", 900);
      at("below", 3000);
      const hook = heavyIsland();
      await createRuntime([hook], document, () => {}).scan(document);
      await flush();
      expect(hook.load).toHaveBeenCalledTimes(1);
      expect(document.getElementById("top")?.getAttribute("data-island-state")).toBe("mounted");
      const below = document.getElementById("below") as HTMLElement;
      expect(below.getAttribute("data-island-state")).toBe("waiting");
      expect(FakeObserver.all[0]?.targets.has(below)).toBe(true);
    } finally {
      delete (document as { prerendering?: boolean }).prerendering;
    }
  });

  it("mounts at once in a browser without IntersectionObserver", async () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    // happy-dom defines it on window: remove it for this test.
    const saved = (window as unknown as Record<string, unknown>).IntersectionObserver;
    delete (window as unknown as Record<string, unknown>).IntersectionObserver;
    try {
      document.body.innerHTML = `<div data-island="heavy"></div>`;
      const hook = heavyIsland();
      await createRuntime([hook], document, () => {}).scan(document);
      await flush();
      expect(hook.load).toHaveBeenCalledTimes(1);
      expect(document.querySelector("div")?.getAttribute("data-island-state")).toBe("mounted");
    } finally {
      (window as unknown as Record<string, unknown>).IntersectionObserver = saved;
    }
  });
});
