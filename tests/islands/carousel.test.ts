// @vitest-environment happy-dom
import { screen, within } from "@testing-library/dom";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { analyticsEventType } from "../../islands/analytics/track.ts";
import * as carousel from "../../islands/carousel/carousel.ts";
import { carouselSpec, mount } from "../../islands/carousel/carousel.ts";
import type { CarouselProps } from "../../islands/carousel/contract.ts";
import { brokenImageClass } from "../../islands/image-error/image-error.ts";
import { flushPageState } from "../../islands/runtime/history-state.ts";
import { readProps } from "../../islands/runtime/props.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";
import { FakeObserver } from "../support/fake-intersection-observer.ts";

// happy-dom has no layout: every slide measures 1 px, as wide as the carousel, so each one
// is a position of its own, and where keen puts the slides cannot be checked here (the
// Playwright journey in tests/e2e/carousel-share.spec.ts does that in a real browser).
// The tests of the movement give the carousel a width of its own (withLayout).

/**
 * The pattern library's examples: five product pictures as photos, with srcset and still
 * ("still"), or turning on their own ("photos").
 */
async function render(locale: "nl" | "de", { autoplay = false } = {}): Promise<HTMLElement> {
  document.documentElement.lang = locale;
  const html = await exampleHtml("carousel", autoplay ? "photos" : "still", locale);
  document.body.innerHTML = `<main>${html}</main><button type="button">after the carousel</button>`;
  const root = document.querySelector<HTMLElement>('[data-island="carousel"]');
  if (!root) throw new Error("the example rendered no carousel");
  return root;
}

const slides = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>(".carousel__slide")];
const images = (root: HTMLElement) => slides(root).map((s) => s.querySelector("img") as HTMLImageElement);
const currentDot = (root: HTMLElement) =>
  root.querySelector('.carousel__dot[aria-current="true"]')?.getAttribute("aria-label");
const key = (target: Element, name: string) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key: name, bubbles: true, cancelable: true }));

let unmount: (() => void) | undefined;
beforeEach(() => {
  vi.stubGlobal("IntersectionObserver", FakeObserver);
});
afterAll(closeExamples);
afterEach(() => {
  unmount?.();
  unmount = undefined;
  FakeObserver.all = [];
  vi.unstubAllGlobals();
  vi.useRealTimers();
  document.body.innerHTML = "";
  vi.restoreAllMocks();
  // The slides a test moved to are remembered in the history entry, which the next test shares.
  flushPageState();
  window.history.replaceState(null, "");
});

describe("the carousel's markup, before any script runs", () => {
  it("is a labelled list that scrolls sideways, keyboard-reachable, with the first image loading at once", async () => {
    const root = await render("nl");
    expect(root.tagName).toBe("SECTION");
    expect(root.getAttribute("aria-label")).toBe("Productfoto’s, stilstaand");
    const list = root.querySelector("ul.carousel__slides");
    expect(list?.getAttribute("tabindex")).toBe("0");
    const [first, ...rest] = images(root);
    expect(first?.getAttribute("src")).toMatch(/^\/static\/images\/products\/.+\.svg$/);
    expect(first?.getAttribute("loading")).toBeNull();
    for (const img of rest) {
      // An empty SVG of the image's size: an <img> needs a src, and this one costs no download.
      expect(img.getAttribute("src"), "no download before the island decides").toMatch(
        /^data:image\/svg\+xml,/,
      );
      expect(img.hasAttribute("sizes"), "sizes waits with its srcset").toBe(false);
      expect(img.dataset.carouselSrc).toMatch(/^\/static\/images\/products\/.+\.svg$/);
    }
  });

  it("carries a copy of every later image for shoppers without JavaScript, loaded lazily by the browser", async () => {
    const root = await render("nl");
    const copies = slides(root)
      .slice(1)
      .map((slide) => slide.querySelector("noscript")?.innerHTML ?? "");
    expect(copies).toHaveLength(4);
    const later = images(root).slice(1);
    for (const [i, copy] of copies.entries()) {
      expect(copy).toContain(`src="${later[i]?.dataset.carouselSrc}"`);
      expect(copy).toContain('loading="lazy"');
      expect(copy).toContain(`alt="${later[i]?.alt}"`);
    }
  });

  it("asks for autoplay every 3000 ms only where the page enables it", async () => {
    expect(readProps<CarouselProps>(await render("nl", { autoplay: true })).autoplayMs).toBe(3000);
    expect(readProps<CarouselProps>(await render("nl")).autoplayMs).toBeUndefined();
  });
});

describe("the carousel island", () => {
  it("becomes an APG carousel: a region described as a carousel, slides as labelled groups", async () => {
    const root = await render("nl");
    unmount = mount(root);
    expect(root.classList.contains("carousel--enhanced")).toBe(true);
    expect(root.getAttribute("aria-roledescription")).toBe("carrousel");
    const list = root.querySelector(".carousel__slides");
    expect(list?.getAttribute("role")).toBe("none");
    expect(list?.hasAttribute("tabindex")).toBe(false);
    expect(slides(root).map((s) => [s.getAttribute("role"), s.getAttribute("aria-label")])).toEqual([
      ["group", "1 van 5"],
      ["group", "2 van 5"],
      ["group", "3 van 5"],
      ["group", "4 van 5"],
      ["group", "5 van 5"],
    ]);
    expect(slides(root).every((s) => s.getAttribute("aria-roledescription") === "dia")).toBe(true);
  });

  it("builds previous and next buttons and a dot per position, named in Dutch", async () => {
    const root = await render("nl");
    unmount = mount(root);
    const region = within(root);
    expect(region.getByRole("button", { name: "Vorige" })).toHaveProperty("type", "button");
    expect(region.getByRole("button", { name: "Volgende" })).toHaveProperty("type", "button");
    expect([...root.querySelectorAll(".carousel__dot")].map((d) => d.getAttribute("aria-label"))).toEqual([
      "Dia 1 van 5",
      "Dia 2 van 5",
      "Dia 3 van 5",
      "Dia 4 van 5",
      "Dia 5 van 5",
    ]);
    expect(currentDot(root)).toBe("Dia 1 van 5");
    expect(region.getByRole("button", { name: "Vorige" }).getAttribute("aria-disabled")).toBe("true");
    expect(region.getByRole("button", { name: "Volgende" }).getAttribute("aria-disabled")).toBe("false");
    expect(region.queryByRole("button", { name: "Pauzeren" }), "no autoplay asked for").toBeNull();
    expect(root.querySelector(".carousel__frame")?.getAttribute("aria-live")).toBe("polite");
  });

  it("speaks German on German pages", async () => {
    const root = await render("de", { autoplay: true });
    unmount = mount(root);
    const region = within(root);
    expect(root.getAttribute("aria-roledescription")).toBe("Karussell");
    expect(slides(root)[1]?.getAttribute("aria-label")).toBe("2 von 5");
    expect(slides(root)[1]?.getAttribute("aria-roledescription")).toBe("Folie");
    expect(region.getByRole("button", { name: "Zurück" })).toBeTruthy();
    expect(region.getByRole("button", { name: "Weiter" })).toBeTruthy();
    expect(region.getByRole("button", { name: "Folie 3 von 5" })).toBeTruthy();
    expect(region.getByRole("button", { name: "Pausieren" })).toBeTruthy();
  });

  it("moves with the arrow keys and the buttons, and takes slides out of view out of the tab order", async () => {
    const root = await render("nl");
    unmount = mount(root);
    expect(slides(root).map((s) => s.hasAttribute("inert"))).toEqual([false, true, true, true, true]);

    key(root.querySelector(".carousel__next") as Element, "ArrowRight");
    await vi.waitFor(() => expect(currentDot(root)).toBe("Dia 2 van 5"));
    // Once the spring has settled (a real half second here: each slide is 1 px wide).
    await vi.waitFor(
      () => expect(slides(root).map((s) => s.hasAttribute("inert"))).toEqual([true, false, true, true, true]),
      { timeout: 5000 },
    );

    (root.querySelector(".carousel__next") as HTMLButtonElement).click();
    await vi.waitFor(() => expect(currentDot(root)).toBe("Dia 3 van 5"));
    key(root, "ArrowLeft");
    await vi.waitFor(() => expect(currentDot(root)).toBe("Dia 2 van 5"));
    screen.getByRole("button", { name: "Dia 5 van 5" }).click();
    await vi.waitFor(() => expect(currentDot(root)).toBe("Dia 5 van 5"));
    expect(root.querySelector(".carousel__next")?.getAttribute("aria-disabled")).toBe("true");
  });

  it("leaves arrow keys alone in a text field and when a modifier is held", async () => {
    const root = await render("nl");
    const field = document.createElement("input");
    slides(root)[0]?.append(field);
    unmount = mount(root);
    expect(key(field, "ArrowRight"), "the caret moves in the field").toBe(true);
    expect(key(root, "ArrowRight"), "elsewhere the carousel takes the key").toBe(false);
    const withAlt = new KeyboardEvent("keydown", {
      key: "ArrowLeft",
      altKey: true,
      bubbles: true,
      cancelable: true,
    });
    expect(root.dispatchEvent(withAlt), "Alt+ArrowLeft is the browser's back").toBe(true);
  });

  it("loads a slide's image once it comes within 150 px of the visible part, and no other", async () => {
    const root = await render("nl");
    unmount = mount(root);
    const observer = FakeObserver.all.at(-1);
    expect(observer?.options.root).toBe(root.querySelector(".carousel__slides"));
    expect(observer?.options.rootMargin).toBe(carouselSpec.lazyRootMargin);
    expect(carouselSpec.lazyRootMargin).toBe("0px 150px");
    const [, second, third] = images(root);
    const secondSource = second?.dataset.carouselSrc;
    expect(observer?.targets.size).toBe(4);

    observer?.near(second as HTMLImageElement);
    expect(second?.getAttribute("src")).toBe(secondSource);
    expect(second?.getAttribute("srcset")).toBe(`${secondSource} 400w`);
    expect(second?.getAttribute("sizes")).toBe("(max-width: 480px) 100vw, 400px");
    expect(second?.hasAttribute("data-carousel-src")).toBe(false);
    expect(observer?.targets.has(second as HTMLImageElement)).toBe(false);
    expect(third?.getAttribute("src")).toMatch(/^data:image\/svg\+xml,/);
  });

  it("marks a slide image that fails to load with the shop's error class", async () => {
    const root = await render("nl");
    unmount = mount(root);
    const [, second] = images(root);
    FakeObserver.all.at(-1)?.near(second as HTMLImageElement);
    second?.dispatchEvent(new Event("error"));
    expect(second?.classList.contains(brokenImageClass)).toBe(true);
  });

  it("loads every slide image at once in a browser without IntersectionObserver", async () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    const saved = (window as unknown as Record<string, unknown>).IntersectionObserver;
    delete (window as unknown as Record<string, unknown>).IntersectionObserver;
    try {
      const root = await render("nl");
      unmount = mount(root);
      expect(images(root).every((img) => img.getAttribute("src")?.endsWith(".svg"))).toBe(true);
    } finally {
      (window as unknown as Record<string, unknown>).IntersectionObserver = saved;
    }
  });

  it("starts a drag only after the pointer moved more than 3 px sideways", async () => {
    const root = await render("nl", { autoplay: true });
    unmount = mount(root);
    const frame = root.querySelector(".carousel__frame") as HTMLElement;
    const slide = slides(root)[0] as HTMLElement;
    const clicks: string[] = [];
    document.addEventListener("click", () => clicks.push("click"));
    const pointer = (type: string, x: number, y = 100, target: EventTarget = window) =>
      target.dispatchEvent(
        new PointerEvent(type, { pointerId: 1, pointerType: "mouse", clientX: x, clientY: y, bubbles: true }),
      );

    pointer("pointerdown", 200, 100, slide);
    pointer("pointermove", 203);
    pointer("pointermove", 197, 102);
    pointer("pointerup", 197, 102);
    slide.click();
    await new Promise((r) => setTimeout(r, 50));
    expect(currentDot(root), "a 3 px wobble is a tap: nothing moves").toBe("Dia 1 van 5");
    expect(clicks, "and its click goes through").toEqual(["click"]);
    expect(within(root).getByRole("button", { name: "Afspelen" }), "pressing stops autoplay").toBeTruthy();

    pointer("pointerdown", 200, 100, frame);
    pointer("pointermove", 201, 110);
    pointer("pointermove", 196, 140);
    pointer("pointerup", 196, 140);
    await new Promise((r) => setTimeout(r, 50));
    expect(currentDot(root), "a mostly vertical gesture scrolls the page").toBe("Dia 1 van 5");

    // Every slide here measures 1 px (no layout), so 4 px to the left is four slides on.
    pointer("pointerdown", 200, 100, slide);
    pointer("pointermove", 196);
    expect(currentDot(root), "4 px sideways is a drag").toBe("Dia 5 van 5");
    pointer("pointerup", 196);
    slide.click();
    expect(clicks, "the click that ends a drag opens nothing").toEqual(["click"]);
    await new Promise((r) => setTimeout(r, 0));
    slide.click();
    expect(clicks, "a later click is the shopper's own").toEqual(["click", "click"]);
  });

  it("leaves dragging to its own threshold: keen's raw mouse dragging, which has none, stays off", async () => {
    const root = await render("nl");
    unmount = mount(root);
    const slide = slides(root)[0] as HTMLElement;
    // keen reads pageX, which happy-dom's mouse events lack: give them the browser's value.
    const mouse = (type: string, x: number) => {
      const event = new MouseEvent(type, { clientX: x, clientY: 100, bubbles: true });
      Object.defineProperties(event, { pageX: { value: x }, pageY: { value: 100 } });
      slide.dispatchEvent(event);
    };
    mouse("mousedown", 300);
    mouse("mousemove", 250);
    mouse("mousemove", 100);
    mouse("mouseup", 100);
    await new Promise((r) => setTimeout(r, 600));
    expect(currentDot(root)).toBe("Dia 1 van 5");
  });

  it("gives the list back as it was when unmounted", async () => {
    const root = await render("nl", { autoplay: true });
    mount(root)();
    expect(root.classList.contains("carousel--enhanced")).toBe(false);
    expect(root.querySelector(".carousel__controls")).toBeNull();
    expect(root.querySelector(".carousel__slides")?.getAttribute("tabindex")).toBe("0");
    expect(slides(root).some((s) => s.hasAttribute("role") || s.hasAttribute("inert"))).toBe(false);
  });
});

describe("the carousel's autoplay on the page", () => {
  it("puts a pause button first, keeps the live region quiet while it turns, and stops for good on a key", async () => {
    const root = await render("nl", { autoplay: true });
    unmount = mount(root);
    const controls = root.querySelector(".carousel__controls");
    const pause = within(root).getByRole("button", { name: "Pauzeren" });
    expect(controls?.firstElementChild).toBe(pause);
    const frame = root.querySelector(".carousel__frame");
    expect(frame?.getAttribute("aria-live")).toBe("off");

    await vi.waitFor(() => expect(currentDot(root)).toBe("Dia 2 van 5"), { timeout: 4000 });
    key(root, "ArrowRight");
    expect(pause.textContent, "the shopper used it: autoplay is over").toBe("Afspelen");
    expect(frame?.getAttribute("aria-live")).toBe("polite");
  });

  it("stops for good when the shopper presses on the slides (a tap or a drag)", async () => {
    const root = await render("nl", { autoplay: true });
    unmount = mount(root);
    slides(root)[0]?.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true, pointerId: 2 }));
    expect(within(root).getByRole("button", { name: "Afspelen" })).toBeTruthy();
  });

  it("does not play by itself for a shopper who prefers reduced motion", async () => {
    vi.stubGlobal(
      "matchMedia",
      (query: string) => ({ matches: query.includes("reduce"), media: query }) as MediaQueryList,
    );
    const root = await render("nl", { autoplay: true });
    unmount = mount(root);
    expect(within(root).getByRole("button", { name: "Afspelen" })).toBeTruthy();
    expect(root.querySelector(".carousel__frame")?.getAttribute("aria-live")).toBe("polite");
  });
});

/** Gives the frame, the list and each slide a width (happy-dom has no layout), so the slides are `width` px apart. */
function withLayout(width = 400): void {
  const measured = (el: HTMLElement) =>
    el.matches(".carousel__frame, .carousel__slides, .carousel__slide") ? width : 0;
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
    const w = measured(this);
    return { x: 0, y: 0, top: 0, left: 0, right: w, bottom: 300, width: w, height: 300, toJSON: () => ({}) };
  });
  vi.spyOn(HTMLElement.prototype, "offsetWidth", "get").mockImplementation(function (this: HTMLElement) {
    return measured(this);
  });
}

/** Animation frames that come only when the test runs them, 1000/60 ms apart on the page's clock. */
function manualFrames() {
  let now = 1000;
  let waiting = new Map<number, FrameRequestCallback>();
  let lastId = 0;
  vi.spyOn(window.performance, "now").mockImplementation(() => now);
  vi.spyOn(window, "requestAnimationFrame").mockImplementation((callback) => {
    waiting.set(++lastId, callback);
    return lastId;
  });
  vi.spyOn(window, "cancelAnimationFrame").mockImplementation((id) => {
    waiting.delete(id);
  });
  return {
    run(count = 1): void {
      for (let i = 0; i < count; i++) {
        now += 1000 / 60;
        const due = [...waiting.values()];
        waiting = new Map();
        for (const callback of due) callback(now);
      }
    },
    get waiting(): number {
      return waiting.size;
    },
  };
}

/** How far the slider has moved, in px: keen places each slide with a transform. */
const moved = (root: HTMLElement) =>
  0 -
  Number.parseFloat(/translate3d\((-?[\d.e-]+)px/.exec(slides(root)[0]?.style.transform ?? "")?.[1] ?? "0");
const inert = (root: HTMLElement) => slides(root).map((s) => s.hasAttribute("inert"));

/** A stand-in for prefers-reduced-motion that the test can change while the page is open. */
function reducedMotion(initially: boolean) {
  const setting = { reduce: initially };
  vi.stubGlobal(
    "matchMedia",
    (query: string) =>
      ({ matches: query.includes("reduce") && setting.reduce, media: query }) as MediaQueryList,
  );
  return setting;
}

describe("the carousel's movement", () => {
  it("keeps the spec's constants in one place: friction 0.28, selected attraction 0.025, 150 ms, 3 px", () => {
    expect(carouselSpec.spring).toEqual({ friction: 0.28, attraction: 0.025 });
    expect(carouselSpec.resizeDebounceMs).toBe(150);
    expect(carouselSpec.dragThresholdPx).toBe(3);
  });

  it("takes a button click to the next slide by the spring, frame by frame, and lands on it", async () => {
    withLayout(400);
    const frames = manualFrames();
    const root = await render("nl");
    unmount = mount(root);
    frames.run();
    expect(moved(root)).toBe(0);

    within(root).getByRole("button", { name: "Volgende" }).click();
    expect(moved(root), "nothing jumps on the click").toBe(0);
    frames.run();
    // The formula's first frame: (400 × 0.025) × (1 − 0.28).
    expect(moved(root)).toBeCloseTo(7.2, 6);
    const path = [moved(root)];
    for (let n = 0; n < 400 && frames.waiting > 0; n++) {
      frames.run();
      path.push(moved(root));
    }
    expect(path.length, "a glide of well over a second at 60 Hz").toBeGreaterThan(60);
    expect(path.length).toBeLessThan(150);
    expect(
      path.every((x, i) => i === 0 || x >= (path[i - 1] as number)),
      "always onwards",
    ).toBe(true);
    expect(Math.max(...path), "never past the slide").toBe(400);
    expect(path.at(-1)).toBe(400);
    expect(
      path.findIndex((x) => x >= 200),
      "half way after about 12 frames",
    ).toBe(11);
    expect(currentDot(root)).toBe("Dia 2 van 5");
    expect(inert(root)).toEqual([true, false, true, true, true]);
  });

  it("jumps for a shopper who prefers reduced motion, asking at every move", async () => {
    withLayout(400);
    const frames = manualFrames();
    const setting = reducedMotion(true);
    const root = await render("nl");
    unmount = mount(root);
    frames.run();
    const next = within(root).getByRole("button", { name: "Volgende" });

    next.click();
    expect(currentDot(root)).toBe("Dia 2 van 5");
    expect(inert(root), "settled at once").toEqual([true, false, true, true, true]);
    frames.run();
    expect(moved(root), "there in the very next frame").toBe(400);
    expect(frames.waiting, "and nothing left to animate").toBe(0);

    setting.reduce = false;
    next.click();
    frames.run();
    expect(moved(root), "the setting changed: the next move glides").toBeCloseTo(407.2, 6);

    setting.reduce = true;
    next.click();
    expect(currentDot(root), "a jump again, from where the glide was").toBe("Dia 4 van 5");
    frames.run();
    expect(moved(root)).toBe(1200);
  });

  it("goes on from where it is heading: two quick clicks go two slides, keeping the speed", async () => {
    withLayout(400);
    const frames = manualFrames();
    const root = await render("nl");
    unmount = mount(root);
    const next = within(root).getByRole("button", { name: "Volgende" });
    next.click();
    frames.run(5);
    const before = moved(root);
    frames.run();
    const here = moved(root);
    // The formula's velocity is what the position gained in the last frame.
    const velocity = here - before;
    next.click();
    frames.run();
    // keen keeps its track to a millionth of the frame's width: 0.0004 px here.
    expect(moved(root)).toBeCloseTo(here + (velocity + (800 - here) * 0.025) * 0.72, 2);
    frames.run(300);
    expect(moved(root)).toBe(800);
    expect(currentDot(root)).toBe("Dia 3 van 5");
  });
});

describe("the carousel and the Back button", () => {
  const still = "carousel-still";
  const remembered = () =>
    (window.history.state as { fotohoek?: { carousel?: Record<string, number> } } | null)?.fotohoek?.carousel;

  it("remembers the slide the shopper moves to in the history entry, beside what others keep there", async () => {
    window.history.replaceState({ router: "kept", fotohoek: { tab: "uploads" } }, "");
    const root = await render("nl");
    unmount = mount(root);
    within(root).getByRole("button", { name: "Volgende" }).click();
    within(root).getByRole("button", { name: "Dia 4 van 5" }).click();
    const replace = vi.spyOn(window.history, "replaceState");
    flushPageState();
    expect(replace, "one write for both moves").toHaveBeenCalledTimes(1);
    expect(window.history.state).toEqual({
      router: "kept",
      fotohoek: { tab: "uploads", carousel: { [still]: 3 } },
    });
    replace.mockRestore();
  });

  it("starts at the remembered slide, at once, on a page loaded for Back", async () => {
    withLayout(400);
    const frames = manualFrames();
    window.history.replaceState({ fotohoek: { carousel: { [still]: 2, other: 4 } } }, "");
    const root = await render("nl");
    unmount = mount(root);
    expect(currentDot(root)).toBe("Dia 3 van 5");
    expect(inert(root)).toEqual([true, true, false, true, true]);
    frames.run();
    expect(moved(root)).toBe(800);
    expect(frames.waiting).toBe(0);
  });

  it("does not start autoplay again where the shopper had moved the slides", async () => {
    window.history.replaceState({ fotohoek: { carousel: { "carousel-photos": 1 } } }, "");
    const root = await render("nl", { autoplay: true });
    unmount = mount(root);
    expect(currentDot(root)).toBe("Dia 2 van 5");
    expect(within(root).getByRole("button", { name: "Afspelen" })).toBeTruthy();
  });

  it("shows the remembered slide at once when the page comes back from the back/forward cache or another entry", async () => {
    withLayout(400);
    const frames = manualFrames();
    const root = await render("nl");
    unmount = mount(root);

    window.history.replaceState({ fotohoek: { carousel: { [still]: 3 } } }, "");
    // happy-dom's PageTransitionEvent is a plain Event: give it the browser's flag.
    const pageshow = (persisted: boolean) =>
      window.dispatchEvent(Object.defineProperty(new Event("pageshow"), "persisted", { value: persisted }));
    pageshow(false);
    expect(currentDot(root), "a fresh load has read it already").toBe("Dia 1 van 5");
    pageshow(true);
    expect(currentDot(root)).toBe("Dia 4 van 5");
    frames.run();
    expect(moved(root)).toBe(1200);

    window.history.replaceState({ fotohoek: { carousel: { [still]: 1 } } }, "");
    window.dispatchEvent(new PopStateEvent("popstate", { state: window.history.state }));
    expect(currentDot(root)).toBe("Dia 2 van 5");
    frames.run();
    expect(moved(root)).toBe(400);
    expect(remembered(), "restoring writes nothing").toEqual({ [still]: 1 });
  });
});

describe("the carousel's analytics", () => {
  const counted = () => {
    const events: unknown[] = [];
    document.addEventListener(analyticsEventType, (event) => events.push((event as CustomEvent).detail));
    return events;
  };
  const move = (index: number, via: string) => ({
    event: "carousel.move",
    properties: { carousel: "carousel-still", index, via },
  });

  it("counts each move of the shopper's that reaches another slide, saying how", async () => {
    const events = counted();
    const root = await render("nl");
    unmount = mount(root);
    const region = within(root);
    region.getByRole("button", { name: "Vorige" }).click();
    region.getByRole("button", { name: "Volgende" }).click();
    region.getByRole("button", { name: "Dia 4 van 5" }).click();
    key(root, "ArrowLeft");
    const frame = root.querySelector(".carousel__frame") as HTMLElement;
    const pointer = (type: string, x: number, target: EventTarget = window) =>
      target.dispatchEvent(
        new PointerEvent(type, {
          pointerId: 1,
          pointerType: "mouse",
          clientX: x,
          clientY: 100,
          bubbles: true,
        }),
      );
    pointer("pointerdown", 200, frame);
    pointer("pointermove", 199);
    pointer("pointermove", 198);
    pointer("pointerup", 198);
    expect(events, "a press on Vorige at the first slide moves nothing, and is not counted").toEqual([
      move(1, "button"),
      move(3, "dot"),
      move(2, "key"),
    ]);
    // Each slide is 1 px wide here (no layout): a 4 px drag reaches the last one.
    pointer("pointerdown", 200, frame);
    pointer("pointermove", 198);
    pointer("pointermove", 196);
    pointer("pointerup", 196);
    expect(events.at(-1)).toEqual(move(4, "drag"));
  });

  it("does not count autoplay's moves, nor remember them", async () => {
    withLayout(400);
    const frames = manualFrames();
    const events = counted();
    const root = await render("nl", { autoplay: true });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    unmount = mount(root);
    vi.advanceTimersByTime(3000);
    frames.run(200);
    expect(currentDot(root)).toBe("Dia 2 van 5");
    flushPageState();
    expect(events).toEqual([]);
    expect(window.history.state).toBeNull();
  });
});

describe("a carousel whose markup breaks its contract", () => {
  it("is left as the plain list, marked failed and reported once, naming the hook and the missing texts", async () => {
    const root = await render("nl");
    root.querySelector(":scope > script[data-props]")?.remove();
    const report = vi.fn();
    const hook = { kind: "island", name: "carousel", react: false, load: async () => carousel } as const;
    await createRuntime([hook], document, report).scan(document);
    expect(root.dataset.islandState).toBe("failed");
    expect(root.classList.contains("carousel--enhanced")).toBe(false);
    expect(report).toHaveBeenCalledTimes(1);
    expect(String(report.mock.calls[0]?.[0])).toMatch(/"carousel".*texts/);
  });
});
