// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { attachAutoplay, createAutoplay } from "../../../islands/carousel/autoplay.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = "";
});

/** A carousel of `count` slides that only counts where it is, wrapping as the island's advance does. */
function slides(count: number) {
  const shown = { index: 0, moves: 0 };
  const advance = () => {
    shown.moves += 1;
    shown.index = shown.index >= count - 1 ? 0 : shown.index + 1;
  };
  return { shown, advance };
}

describe("the carousel's autoplay", () => {
  it("moves on every 3000 ms and starts again at the first slide after the last", () => {
    const { shown, advance } = slides(3);
    createAutoplay({ intervalMs: 3000, advance });
    vi.advanceTimersByTime(2999);
    expect(shown.moves).toBe(0);
    vi.advanceTimersByTime(1);
    expect(shown.index).toBe(1);
    vi.advanceTimersByTime(3000);
    expect(shown.index).toBe(2);
    vi.advanceTimersByTime(3000);
    expect(shown.index).toBe(0);
    expect(shown.moves).toBe(3);
  });

  it("waits while the shopper points at it or has focus in it, and goes on a whole interval after", () => {
    const { shown, advance } = slides(5);
    const autoplay = createAutoplay({ intervalMs: 3000, advance });
    vi.advanceTimersByTime(2000);
    autoplay.hold("hover", true);
    vi.advanceTimersByTime(10_000);
    expect(shown.moves).toBe(0);
    expect(autoplay.rotating).toBe(false);
    expect(autoplay.state).toBe("playing");

    autoplay.hold("focus", true);
    autoplay.hold("hover", false);
    vi.advanceTimersByTime(10_000);
    expect(shown.moves, "focus still inside").toBe(0);

    autoplay.hold("focus", false);
    expect(autoplay.rotating).toBe(true);
    vi.advanceTimersByTime(2999);
    expect(shown.moves).toBe(0);
    vi.advanceTimersByTime(1);
    expect(shown.moves).toBe(1);
  });

  it("does not restart its interval when a hold that was never on is released", () => {
    const { shown, advance } = slides(5);
    const autoplay = createAutoplay({ intervalMs: 3000, advance });
    vi.advanceTimersByTime(2000);
    autoplay.hold("hover", false);
    vi.advanceTimersByTime(1000);
    expect(shown.moves).toBe(1);
  });

  it("waits while the browser tab is hidden", () => {
    const { shown, advance } = slides(5);
    const autoplay = createAutoplay({ intervalMs: 3000, advance });
    autoplay.hold("hidden", true);
    vi.advanceTimersByTime(30_000);
    expect(shown.moves).toBe(0);
    autoplay.hold("hidden", false);
    vi.advanceTimersByTime(3000);
    expect(shown.moves).toBe(1);
  });

  it("stops for good once the shopper uses the carousel, also after the pointer leaves", () => {
    const { shown, advance } = slides(5);
    const onChange = vi.fn();
    const autoplay = createAutoplay({ intervalMs: 3000, advance, onChange });
    vi.advanceTimersByTime(3000);
    autoplay.hold("hover", true);
    autoplay.stop();
    autoplay.hold("hover", false);
    vi.advanceTimersByTime(60_000);
    expect(shown.moves).toBe(1);
    expect(autoplay.state).toBe("stopped");
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ state: "stopped", rotating: false }));
  });

  it("plays again when the shopper asks for it, even with the pointer and focus still inside", () => {
    const { shown, advance } = slides(5);
    const autoplay = createAutoplay({ intervalMs: 3000, advance });
    autoplay.stop();
    autoplay.hold("hover", true);
    autoplay.hold("focus", true);
    autoplay.play();
    expect(autoplay.rotating).toBe(true);
    vi.advanceTimersByTime(3000);
    expect(shown.moves).toBe(1);
  });

  it("does nothing after it is destroyed", () => {
    const { shown, advance } = slides(5);
    createAutoplay({ intervalMs: 3000, advance }).destroy();
    vi.advanceTimersByTime(30_000);
    expect(shown.moves).toBe(0);
  });
});

describe("the autoplay wired to a carousel", () => {
  function carousel(reducedMotion = false) {
    document.body.innerHTML = `<section id="c"><button id="inside">inside</button></section><button id="outside">outside</button>`;
    const root = document.getElementById("c") as HTMLElement;
    const { shown, advance } = slides(4);
    const onChange = vi.fn();
    const attached = attachAutoplay(root, {
      intervalMs: 3000,
      advance,
      texts: { pause: "Pauzeren", play: "Afspelen" },
      reducedMotion,
      onChange,
    });
    root.prepend(attached.button);
    return { root, shown, attached, onChange };
  }

  it("offers a visible pause button that pauses and plays, its label saying what it will do", () => {
    const { shown, attached } = carousel();
    const button = attached.button;
    expect(button.type).toBe("button");
    expect(button.textContent).toBe("Pauzeren");
    button.click();
    expect(attached.controller.state).toBe("paused");
    expect(button.textContent).toBe("Afspelen");
    expect(button.dataset.state).toBe("paused");
    vi.advanceTimersByTime(30_000);
    expect(shown.moves).toBe(0);

    button.click();
    expect(button.textContent).toBe("Pauzeren");
    vi.advanceTimersByTime(3000);
    expect(shown.moves).toBe(1);
  });

  it("waits while the pointer is over it and goes on when the pointer leaves", () => {
    const { root, shown } = carousel();
    root.dispatchEvent(new PointerEvent("pointerenter"));
    vi.advanceTimersByTime(9000);
    expect(shown.moves).toBe(0);
    root.dispatchEvent(new PointerEvent("pointerleave"));
    vi.advanceTimersByTime(3000);
    expect(shown.moves).toBe(1);
  });

  it("waits while keyboard focus is inside and goes on once focus leaves the carousel", () => {
    const { shown, onChange } = carousel();
    (document.getElementById("inside") as HTMLButtonElement).focus();
    vi.advanceTimersByTime(9000);
    expect(shown.moves).toBe(0);
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ rotating: false }));
    (document.getElementById("outside") as HTMLButtonElement).focus();
    vi.advanceTimersByTime(3000);
    expect(shown.moves).toBe(1);
  });

  it("for a shopper who prefers reduced motion, does not start by itself but can be started", () => {
    const { shown, attached } = carousel(true);
    expect(attached.controller.state).toBe("paused");
    expect(attached.button.textContent).toBe("Afspelen");
    vi.advanceTimersByTime(30_000);
    expect(shown.moves).toBe(0);
    attached.button.click();
    vi.advanceTimersByTime(3000);
    expect(shown.moves).toBe(1);
  });

  it("takes its button away and stops when detached", () => {
    const { shown, attached } = carousel();
    attached.detach();
    expect(attached.button.isConnected).toBe(false);
    vi.advanceTimersByTime(30_000);
    expect(shown.moves).toBe(0);
  });
});
