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
