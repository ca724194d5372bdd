// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushPageState, readPageState, writePageState } from "../../../islands/runtime/history-state.ts";

afterEach(() => {
  flushPageState();
  window.history.replaceState(null, "");
  vi.useRealTimers();
});

describe("a shopper's choices kept in the history entry", () => {
  it("keeps each island's key beside the others and beside state it does not own", () => {
    window.history.replaceState({ router: "kept" }, "");
    writePageState("tab", "uploads");
    writePageState("carousel", { slide: 3 });
    flushPageState();
    expect(window.history.state).toEqual({
      router: "kept",
      fotohoek: { tab: "uploads", carousel: { slide: 3 } },
    });
    expect(readPageState("tab")).toBe("uploads");
    expect(readPageState("faq")).toBeUndefined();
  });

  it("writes many quick changes as one replaceState, and reads the latest before it is written", () => {
    vi.useFakeTimers();
    const replace = vi.spyOn(window.history, "replaceState");
    for (let slide = 0; slide < 50; slide++) writePageState("carousel", { slide });
    expect(readPageState("carousel")).toEqual({ slide: 49 });
    expect(replace).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(replace).toHaveBeenCalledTimes(1);
    expect(readPageState("carousel")).toEqual({ slide: 49 });
    replace.mockRestore();
  });

  it("writes what is pending when the page is left", () => {
    vi.useFakeTimers();
    writePageState("options", { size: "30x30" });
    window.dispatchEvent(new Event("pagehide"));
    expect(window.history.state).toEqual({ fotohoek: { options: { size: "30x30" } } });
  });

  it("loses only the choice, not the page, when the browser refuses the write", () => {
    const replace = vi.spyOn(window.history, "replaceState").mockImplementation(() => {
      throw new DOMException("too many calls", "SecurityError");
    });
    writePageState("tab", "plans");
    expect(() => flushPageState()).not.toThrow();
    replace.mockRestore();
  });
});
