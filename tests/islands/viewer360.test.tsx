// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { analyticsEventType, type TrackDetail } from "../../islands/analytics/track.ts";
import { selectionStore } from "../../islands/product/selection-store.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import type { Viewer360Props } from "../../islands/viewer360/contract.ts";
import * as viewer360 from "../../islands/viewer360/viewer360.tsx";
import { mount } from "../../islands/viewer360/viewer360.tsx";
import { closeExamples, exampleHtml } from "../support/examples.ts";

/** The frames' version the tests expect in addresses, whatever frames this checkout has built. */
const version = "1a2b3c4d";

/** The pattern library's viewer, with its product's recommended front; its words are the tests' too. */
let example = "";
let dutch = "";
let german = "";
let texts: Viewer360Props["texts"];
beforeAll(async () => {
  dutch = await exampleHtml("viewer360");
  german = await exampleHtml("viewer360", "default", "de");
  example = dutch;
  texts = exampleProps().texts;
});
afterAll(closeExamples);

const propsScript = (root: ParentNode) =>
  root.querySelector('[data-island="viewer360"] > script[data-props]') as HTMLScriptElement;

function exampleProps(): Viewer360Props {
  const template = document.createElement("template");
  template.innerHTML = example;
  return JSON.parse(propsScript(template.content).textContent ?? "{}") as Viewer360Props;
}

/** Puts the example into the page with its props changed as `change` says. */
function showExample(change: (props: Viewer360Props) => object) {
  document.body.innerHTML = example;
  const script = propsScript(document);
  script.textContent = JSON.stringify(change(JSON.parse(script.textContent ?? "{}") as Viewer360Props));
}

/** Stands in for the browser's image loading, which happy-dom does not do. */
class FakeImage {
  static made: FakeImage[] = [];
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  decoding = "";
  src = "";
  settled = false;
  constructor() {
    FakeImage.made.push(this);
  }
}

/** The preloads the viewer still listens to (React's StrictMode starts effects twice in tests). */
const requested = () => FakeImage.made.filter((image) => image.onload);

function settle(match: (src: string) => boolean, outcome: "load" | "error") {
  act(() => {
    for (const image of requested().filter((i) => !i.settled && match(i.src))) {
      image.settled = true;
      (outcome === "load" ? image.onload : image.onerror)?.();
    }
  });
}
const loadAll = () => settle(() => true, "load");

let unmount: (() => void) | undefined;

function render(width = 1280, props: Partial<Viewer360Props> = {}) {
  window.innerWidth = width;
  showExample((example) => ({ ...example, version, ...props }));
  act(() => {
    unmount = mount(document.querySelector("[data-island]") as HTMLElement);
  });
}

const image = () => document.querySelector(".viewer360__image") as HTMLImageElement;
const shownFrame = () => Number(image().dataset.frame);
const slider = () => screen.getByRole("slider");
const turnLeft = () => screen.getByRole("button", { name: texts.turnLeft });
const turnRight = () => screen.getByRole("button", { name: texts.turnRight });
const key = (name: string) => fireEvent.keyDown(slider(), { key: name });
/** Every frame number the picture shows from now on, in order. */
function watchFrames(): number[] {
  const seen: number[] = [];
  const observer = new MutationObserver(() => {
    const frame = shownFrame();
    if (frame !== seen.at(-1)) seen.push(frame);
  });
  observer.observe(document.querySelector(".viewer360__figure") as Node, {
    subtree: true,
    attributes: true,
    attributeFilter: ["data-frame"],
  });
  return seen;
}
/** Lets animation frames run, inside act so React applies their updates. */
const pause = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

beforeEach(() => {
  FakeImage.made = [];
  vi.stubGlobal("Image", FakeImage);
});
afterEach(() => {
  act(() => unmount?.());
  unmount = undefined;
  example = dutch;
  document.body.innerHTML = "";
  selectionStore.setState({ selection: undefined });
  vi.unstubAllGlobals();
});

describe("the 360 viewer island", () => {
  it("shows the first frame at once, while the others load", () => {
    render();
    expect(image().getAttribute("src")).toBe(
      `/pages/productpage/360/photobook-exclusive-landscape/720/1.jpg?v=${version}`,
    );
    expect(image().alt).toBe("Exclusief fotoboek, Liggend");
    expect(shownFrame()).toBe(1);
    expect(slider().getAttribute("aria-label")).toBe("360°-weergave: Exclusief fotoboek, Liggend");
  });

  it("on a wide screen, requests all 36 frames at 720 px", () => {
    render(1280);
    const srcs = requested().map((i) => i.src);
    expect(srcs).toHaveLength(36);
    expect(srcs[35]).toBe(`/pages/productpage/360/photobook-exclusive-landscape/720/36.jpg?v=${version}`);
  });

  it("on a page prerendered ahead of a click, requests the other frames only once the shopper opens it", async () => {
    Object.defineProperty(document, "prerendering", { value: true, configurable: true });
    try {
      render(1280);
      expect(requested()).toHaveLength(0);
      expect(image().getAttribute("src")).toBe(
        `/pages/productpage/360/photobook-exclusive-landscape/720/1.jpg?v=${version}`,
      );
      Object.defineProperty(document, "prerendering", { value: false, configurable: true });
      act(() => {
        document.dispatchEvent(new Event("prerenderingchange"));
      });
      // After the first frame the shown page draws.
      await waitFor(() => expect(requested()).toHaveLength(36));
    } finally {
      delete (document as { prerendering?: boolean }).prerendering;
    }
  });

  it("on a tablet, requests every second frame at 720 px", () => {
    render(600);
    const srcs = requested().map((i) => i.src);
    expect(srcs).toHaveLength(18);
    expect(srcs.every((src) => /\/720\/([13579]|[123][13579])\.jpg/.test(src))).toBe(true);
  });

  it("on a small screen, requests every second frame at 320 px and counts in its own steps", () => {
    render(375);
    const srcs = requested().map((i) => i.src);
    expect(srcs).toHaveLength(18);
    expect(srcs.every((src) => src.includes("/320/"))).toBe(true);
    loadAll();
    key("End");
    expect(shownFrame()).toBe(35);
    expect(slider().getAttribute("aria-valuetext")).toBe("Beeld 18 van 18");
  });

  it("shows its loading progress, and hides it once every frame has settled", () => {
    render();
    const progress = () => screen.queryByRole("progressbar", { name: texts.loading });
    expect(progress()?.getAttribute("aria-valuenow")).toBe("0");
    expect(progress()?.getAttribute("aria-valuemax")).toBe("100");
    settle((src) => /\/([1-9]|1[0-8])\.jpg/.test(src), "load");
    expect(progress()?.getAttribute("aria-valuenow")).toBe("50");
    expect(screen.getByText("Beelden laden: 50%")).toBeTruthy();
    // A frame that fails still counts as settled, or the bar would never go.
    settle((src) => src.includes("/36.jpg"), "error");
    expect(progress()?.getAttribute("aria-valuenow")).toBe("53");
    settle(() => true, "load");
    expect(progress()).toBeNull();
  });

  it("turns one frame per arrow key, jumps with Home and End, and stops at both ends", () => {
    render();
    loadAll();
    key("ArrowRight");
    expect(shownFrame()).toBe(2);
    expect(slider().getAttribute("aria-valuenow")).toBe("2");
    expect(slider().getAttribute("aria-valuetext")).toBe("Beeld 2 van 36");
    key("ArrowLeft");
    key("ArrowLeft");
    expect(shownFrame()).toBe(1);
    key("End");
    expect(shownFrame()).toBe(36);
    key("ArrowRight");
    expect(shownFrame()).toBe(36);
    key("Home");
    expect(shownFrame()).toBe(1);
  });

  it("turns a few frames per button press, with the button unavailable at the end", async () => {
    render();
    loadAll();
    expect(turnLeft().getAttribute("aria-disabled")).toBe("true");
    expect(turnRight().getAttribute("aria-disabled")).toBe("false");
    act(() => turnRight().click());
    await waitFor(() => expect(shownFrame()).toBe(4));
    expect(turnLeft().getAttribute("aria-disabled")).toBe("false");
    act(() => turnLeft().click());
    await waitFor(() => expect(shownFrame()).toBe(1));

    key("End");
    expect(turnRight().getAttribute("aria-disabled")).toBe("true");
    act(() => turnRight().click());
    await pause(50);
    expect(shownFrame()).toBe(36);
  });

  it("skips a frame that failed to load instead of showing a broken image", () => {
    render();
    settle((src) => src.includes("/2.jpg"), "error");
    settle(() => true, "load");
    const shown: string[] = [];
    key("ArrowRight");
    shown.push(image().src);
    expect(slider().getAttribute("aria-valuenow")).toBe("2");
    expect([1, 3]).toContain(shownFrame());
    key("ArrowRight");
    shown.push(image().src);
    expect(shownFrame()).toBe(3);
    expect(shown.some((src) => src.includes("/2.jpg"))).toBe(false);
  });

  it("follows a drag through a short ease, not one to one, and stops at the ends", async () => {
    render();
    loadAll();
    const stage = slider();
    stage.getBoundingClientRect = () => ({ width: 350 }) as DOMRect;
    const seen = watchFrames();
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, button: 0, pointerType: "mouse" });
    // 350 px is the whole range of 35 steps: 50 px is five frames on.
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 150, pointerType: "mouse" });
    expect(shownFrame(), "the picture has not jumped to the pointer").toBe(1);
    await waitFor(() => expect(shownFrame()).toBe(6));
    expect(
      seen.some((frame) => frame > 1 && frame < 6),
      `frames on the way: ${seen.join(", ")}`,
    ).toBe(true);
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 900, pointerType: "mouse" });
    await waitFor(() => expect(shownFrame()).toBe(36));
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 900, pointerType: "mouse" });
    await pause(100);
    expect(shownFrame()).toBe(36);

    fireEvent.pointerDown(stage, { pointerId: 2, clientX: 500, button: 0, pointerType: "mouse" });
    fireEvent.pointerMove(stage, { pointerId: 2, clientX: -400, pointerType: "mouse" });
    fireEvent.pointerUp(stage, { pointerId: 2, clientX: -400, pointerType: "mouse" });
    await waitFor(() => expect(shownFrame()).toBe(1));
    expect(Math.min(...seen), "it never wrapped past the first frame").toBe(1);
  });

  it("leaves an upright swipe to the page: it turns nothing and does not take the pointer", async () => {
    render(375);
    loadAll();
    const stage = slider();
    stage.getBoundingClientRect = () => ({ width: 350 }) as DOMRect;
    const capture = vi.fn();
    stage.setPointerCapture = capture;
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, clientY: 100, pointerType: "touch" });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 103, clientY: 104, pointerType: "touch" });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 106, clientY: 160, pointerType: "touch" });
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 200, clientY: 200, pointerType: "touch" });
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 200, clientY: 200, pointerType: "touch" });
    await pause(50);
    expect(shownFrame()).toBe(1);
    expect(capture).not.toHaveBeenCalled();
    expect(stage.className).not.toContain("is-dragging");

    // A sideways one turns, and only then takes the pointer.
    fireEvent.pointerDown(stage, { pointerId: 2, clientX: 100, clientY: 100, pointerType: "touch" });
    fireEvent.pointerMove(stage, { pointerId: 2, clientX: 104, clientY: 101, pointerType: "touch" });
    expect(capture).not.toHaveBeenCalled();
    fireEvent.pointerMove(stage, { pointerId: 2, clientX: 200, clientY: 110, pointerType: "touch" });
    expect(capture).toHaveBeenCalledWith(2);
    expect(stage.className).toContain("is-dragging");
    fireEvent.pointerUp(stage, { pointerId: 2, clientX: 200, clientY: 110, pointerType: "touch" });
    await waitFor(() => expect(shownFrame()).toBeGreaterThan(1));
  });

  it("keeps turning for a moment after a flick", async () => {
    render();
    loadAll();
    const stage = slider();
    stage.getBoundingClientRect = () => ({ width: 350 }) as DOMRect;
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 0, button: 0, pointerType: "touch" });
    for (const x of [20, 40, 60]) {
      await pause(15);
      fireEvent.pointerMove(stage, { pointerId: 1, clientX: x, pointerType: "touch" });
    }
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 60, pointerType: "touch" });
    const released = shownFrame();
    await waitFor(() => expect(shownFrame()).toBeGreaterThan(released));
  });

  it("when the shopper prefers reduced motion, stops where the flick let go", async () => {
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query.includes("reduce"), media: query }));
    render();
    loadAll();
    const stage = slider();
    stage.getBoundingClientRect = () => ({ width: 350 }) as DOMRect;
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 0, button: 0, pointerType: "touch" });
    for (const x of [20, 40, 60]) {
      await pause(15);
      fireEvent.pointerMove(stage, { pointerId: 1, clientX: x, pointerType: "touch" });
    }
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 60, pointerType: "touch" });
    const released = shownFrame();
    await pause(100);
    expect(shownFrame()).toBe(released);
  });

  it("never turns by itself: there is no autoplay, with or without reduced motion", async () => {
    for (const reduce of [false, true]) {
      vi.stubGlobal("matchMedia", (query: string) => ({
        matches: reduce && query.includes("reduce"),
        media: query,
      }));
      const frames = vi.spyOn(window, "requestAnimationFrame");
      render();
      loadAll();
      await pause(300);
      expect(shownFrame()).toBe(1);
      expect(frames, "no animation runs before the shopper does something").not.toHaveBeenCalled();
      frames.mockRestore();
      act(() => unmount?.());
    }
  });

  it("when the shopper prefers reduced motion, a button turns at once, without an animation", () => {
    vi.stubGlobal("matchMedia", (query: string) => ({ matches: query.includes("reduce"), media: query }));
    const frames = vi.spyOn(window, "requestAnimationFrame");
    render();
    loadAll();
    act(() => turnRight().click());
    expect(shownFrame()).toBe(4);
    expect(frames).not.toHaveBeenCalled();
    frames.mockRestore();
  });

  it("turns with Page Up and Page Down as the buttons do, and with the up and down arrows", () => {
    render();
    loadAll();
    key("PageUp");
    expect(shownFrame()).toBe(4);
    key("ArrowUp");
    expect(shownFrame()).toBe(5);
    key("ArrowDown");
    key("PageDown");
    expect(shownFrame()).toBe(1);
  });

  it("on a small screen, an arrow key turns one of its steps: two frames", () => {
    render(375);
    loadAll();
    key("ArrowRight");
    expect(shownFrame()).toBe(3);
    expect(slider().getAttribute("aria-valuenow")).toBe("2");
    expect(slider().getAttribute("aria-valuetext")).toBe("Beeld 2 van 18");
    key("Home");
    expect(shownFrame()).toBe(1);
  });

  it("names itself, its keys and its buttons in German, addressing the shopper formally", () => {
    example = german;
    render();
    loadAll();
    key("ArrowRight");
    expect(slider().getAttribute("aria-valuetext")).toBe("Bild 2 von 36");
    expect(slider().getAttribute("aria-label")).toBe("360°-Ansicht: Exklusives Fotobuch, Querformat");
    const instructions = document.getElementById(slider().getAttribute("aria-describedby") ?? "");
    expect(instructions?.textContent).toMatch(/Ziehen Sie .*Pos1 und Ende.*Zoomen Sie/);
    for (const name of ["Vergrößern", "Verkleinern", "Zoom zurücksetzen", "Vollbild", "Nach links drehen"]) {
      expect(screen.getByRole("button", { name })).toBeTruthy();
    }
  });

  /**
   * Width media queries that follow window.innerWidth, and a resize that tells their
   * listeners when it crosses them, as a browser does (happy-dom's own lists start out of
   * step with a width set by the test). Stubbed before render, as the viewer listens at mount.
   */
  function resizableWindow(): (width: number) => void {
    const lists: Array<{ matches: boolean; listeners: Set<(event: { matches: boolean }) => void> }> = [];
    vi.stubGlobal("matchMedia", (media: string) => {
      const max = /max-width:\s*(\d+)px/.exec(media);
      const list = {
        media,
        get matches() {
          return max ? window.innerWidth <= Number(max[1]) : false;
        },
        listeners: new Set<(event: { matches: boolean }) => void>(),
        addEventListener: (_: string, listener: (event: { matches: boolean }) => void) =>
          list.listeners.add(listener),
        removeEventListener: (_: string, listener: (event: { matches: boolean }) => void) =>
          list.listeners.delete(listener),
      };
      lists.push(list);
      return list;
    });
    return (width) =>
      act(() => {
        const before = lists.map((list) => list.matches);
        window.innerWidth = width;
        lists.forEach((list, i) => {
          if (list.matches !== before[i])
            for (const listener of list.listeners) listener({ matches: list.matches });
        });
      });
  }

  it("when the window narrows to a tablet's width, keeps the angle and needs no new frames", () => {
    const resize = resizableWindow();
    render(1280);
    loadAll();
    for (let i = 0; i < 10; i++) key("ArrowRight");
    expect(shownFrame()).toBe(11);
    const made = FakeImage.made.length;

    resize(600);
    expect(shownFrame()).toBe(11);
    expect(slider().getAttribute("aria-valuetext")).toBe("Beeld 6 van 18");
    // Every second 720 px frame is already in hand.
    expect(FakeImage.made.slice(made).filter((i) => i.onload)).toHaveLength(0);
    key("ArrowRight");
    expect(shownFrame()).toBe(13);
  });

  it("when the window narrows to a phone's width, loads the 320 px frames and keeps the angle", () => {
    const resize = resizableWindow();
    render(1280);
    loadAll();
    key("End");
    resize(375);
    const srcs = requested()
      .filter((i) => !i.settled)
      .map((i) => i.src);
    expect(srcs).toHaveLength(18);
    expect(srcs.every((src) => src.includes("/320/"))).toBe(true);
    loadAll();
    expect(shownFrame()).toBe(35);
    expect(image().getAttribute("src")).toContain("/320/35.jpg");
    expect(slider().getAttribute("aria-valuetext")).toBe("Beeld 18 van 18");
  });

  it("when the window widens past 725 px, loads every frame and keeps the angle", () => {
    const resize = resizableWindow();
    render(600);
    loadAll();
    for (let i = 0; i < 4; i++) key("ArrowRight");
    expect(shownFrame()).toBe(9);
    resize(1280);
    expect(requested().filter((i) => !i.settled)).toHaveLength(18);
    loadAll();
    expect(shownFrame()).toBe(9);
    expect(slider().getAttribute("aria-valuetext")).toBe("Beeld 9 van 36");
    key("ArrowRight");
    expect(shownFrame()).toBe(10);
  });

  it("when the shopper picks another orientation, loads that front from its first frame", () => {
    render(1280, { alts: { "photobook-exclusive-portrait": "Exclusief fotoboek, Staand" } });
    loadAll();
    key("End");
    act(() =>
      selectionStore.getState().select({
        productId: "exclusive-photobook",
        orientation: "portrait",
        sizeId: "21x30",
        frontId: "photobook-exclusive-portrait",
      }),
    );
    expect(image().getAttribute("src")).toBe(
      `/pages/productpage/360/photobook-exclusive-portrait/720/1.jpg?v=${version}`,
    );
    expect(image().alt).toBe("Exclusief fotoboek, Staand");
    expect(shownFrame()).toBe(1);
    const srcs = requested().map((i) => i.src);
    expect(srcs).toHaveLength(36);
    expect(srcs.every((src) => src.includes("/photobook-exclusive-portrait/"))).toBe(true);
  });
});

const button = (name: string) => screen.getByRole("button", { name });
const transform = () => image().style.transform;

describe("zooming into the 360 viewer", () => {
  it("zooms in and out with its buttons between 1× and 3×, and back with the reset button", () => {
    render();
    loadAll();
    expect(transform()).toBe("");
    expect(button(texts.zoomOut).getAttribute("aria-disabled")).toBe("true");
    expect(button(texts.zoomReset).getAttribute("aria-disabled")).toBe("true");
    act(() => button(texts.zoomIn).click());
    expect(transform()).toBe("translate(0px, 0px) scale(1.5)");
    expect(slider().className).toContain("is-zoomed");
    for (let i = 0; i < 5; i++) act(() => button(texts.zoomIn).click());
    expect(transform()).toContain("scale(3)");
    expect(button(texts.zoomIn).getAttribute("aria-disabled")).toBe("true");
    act(() => button(texts.zoomOut).click());
    expect(transform()).toContain("scale(2.5)");
    act(() => button(texts.zoomReset).click());
    expect(transform()).toBe("");
    expect(slider().className).not.toContain("is-zoomed");
  });

  it("zooms with the + and − keys, resets with 0, and still turns with the arrows while zoomed", () => {
    render();
    loadAll();
    key("+");
    key("=");
    expect(transform()).toContain("scale(2)");
    key("-");
    expect(transform()).toContain("scale(1.5)");
    key("ArrowRight");
    expect(shownFrame()).toBe(2);
    expect(transform()).toContain("scale(1.5)");
    key("0");
    expect(transform()).toBe("");
  });

  it("zooms with ctrl and the wheel, and lets a plain wheel scroll the page", () => {
    render();
    loadAll();
    const stage = slider();
    stage.getBoundingClientRect = () => ({ left: 0, top: 0, width: 400, height: 400 }) as DOMRect;
    const wheel = (init: WheelEventInit) => {
      const event = new WheelEvent("wheel", {
        bubbles: true,
        cancelable: true,
        clientX: 200,
        clientY: 200,
        ...init,
      });
      // happy-dom's WheelEvent drops the modifier keys and the position it is given.
      for (const [name, value] of Object.entries({
        ctrlKey: init.ctrlKey ?? false,
        clientX: 200,
        clientY: 200,
      }))
        Object.defineProperty(event, name, { value });
      act(() => {
        stage.dispatchEvent(event);
      });
      return event;
    };
    expect(wheel({ deltaY: -100 }).defaultPrevented, "a plain wheel scrolls").toBe(false);
    expect(transform()).toBe("");
    expect(wheel({ deltaY: -100, ctrlKey: true }).defaultPrevented, "ctrl+wheel does not zoom the page").toBe(
      true,
    );
    expect(transform()).toMatch(/scale\(1\.39/);
    wheel({ deltaY: 300, ctrlKey: true });
    expect(transform()).toBe("");
  });

  it("zooms with two fingers, and while zoomed a drag moves the picture instead of turning it", () => {
    render(375);
    loadAll();
    const stage = slider();
    stage.getBoundingClientRect = () => ({ left: 0, top: 0, width: 400, height: 400 }) as DOMRect;
    const touch = { pointerType: "touch" };
    fireEvent.pointerDown(stage, { ...touch, pointerId: 1, clientX: 150, clientY: 200 });
    fireEvent.pointerDown(stage, { ...touch, pointerId: 2, clientX: 250, clientY: 200 });
    expect(stage.className, "two fingers down take every touch").toContain("is-zoomed");
    fireEvent.pointerMove(stage, { ...touch, pointerId: 2, clientX: 350, clientY: 200 });
    fireEvent.pointerMove(stage, { ...touch, pointerId: 1, clientX: 50, clientY: 200 });
    // The fingers spread from 100 to 300 px apart: three times, the most it zooms.
    expect(transform()).toBe("translate(0px, 0px) scale(3)");
    fireEvent.pointerUp(stage, { ...touch, pointerId: 1, clientX: 50, clientY: 200 });
    fireEvent.pointerUp(stage, { ...touch, pointerId: 2, clientX: 350, clientY: 200 });
    expect(stage.className).toContain("is-zoomed");

    fireEvent.pointerDown(stage, { ...touch, pointerId: 3, clientX: 200, clientY: 200 });
    fireEvent.pointerMove(stage, { ...touch, pointerId: 3, clientX: 300, clientY: 150 });
    fireEvent.pointerUp(stage, { ...touch, pointerId: 3, clientX: 300, clientY: 150 });
    expect(transform()).toBe("translate(100px, -50px) scale(3)");
    expect(shownFrame()).toBe(1);
    // No further than the picture's edge: at 3× it sticks out 400 px on each side.
    fireEvent.pointerDown(stage, { ...touch, pointerId: 4, clientX: 0, clientY: 0 });
    fireEvent.pointerMove(stage, { ...touch, pointerId: 4, clientX: 2000, clientY: 0 });
    expect(transform()).toBe("translate(400px, -50px) scale(3)");
  });
});

/**
 * Stands in for the Fullscreen API, which happy-dom lacks: requestFullscreen and
 * exitFullscreen change document.fullscreenElement and tell the document, as a browser
 * does. This tests the viewer's handling of that API, not the API.
 */
function fakeFullscreen() {
  let current: Element | null = null;
  const change = (element: Element | null) => {
    current = element;
    document.dispatchEvent(new Event("fullscreenchange"));
  };
  Object.defineProperty(document, "fullscreenElement", { configurable: true, get: () => current });
  const request = vi.fn(function (this: Element) {
    change(this);
    return Promise.resolve();
  });
  Object.defineProperty(HTMLElement.prototype, "requestFullscreen", { configurable: true, value: request });
  Object.defineProperty(document, "exitFullscreen", {
    configurable: true,
    value: vi.fn(() => {
      change(null);
      return Promise.resolve();
    }),
  });
  return {
    request,
    /** The browser leaving full screen by itself: the shopper pressed Esc. */
    escape: () => act(() => change(null)),
    remove: () => {
      for (const [owner, name] of [
        [document, "fullscreenElement"],
        [document, "exitFullscreen"],
        [HTMLElement.prototype, "requestFullscreen"],
      ] as const)
        Reflect.deleteProperty(owner, name);
    },
  };
}

describe("the 360 viewer in full screen", () => {
  let fullscreen: ReturnType<typeof fakeFullscreen> | undefined;
  afterEach(() => {
    fullscreen?.remove();
    fullscreen = undefined;
  });

  it("asks the browser for full screen for the whole viewer, and follows it out again on Esc", async () => {
    fullscreen = fakeFullscreen();
    render();
    loadAll();
    await act(async () => button(texts.fullscreen).click());
    expect(fullscreen.request).toHaveBeenCalledTimes(1);
    expect(fullscreen.request.mock.contexts[0]).toBe(document.querySelector(".viewer360__figure"));
    const exit = button(texts.exitFullscreen);
    expect(screen.queryByRole("button", { name: texts.fullscreen })).toBeNull();

    fullscreen.escape();
    expect(button(texts.fullscreen)).toBe(exit);
    expect(document.activeElement).toBe(exit);

    // The button leaves full screen too, through the document.
    await act(async () => button(texts.fullscreen).click());
    await act(async () => button(texts.exitFullscreen).click());
    expect(document.exitFullscreen).toHaveBeenCalledTimes(1);
    expect(button(texts.fullscreen)).toBeTruthy();

    // An Esc that reaches the page (where the browser lets it through) leaves as well.
    await act(async () => button(texts.fullscreen).click());
    await act(async () => {
      fireEvent.keyDown(slider(), { key: "Escape" });
    });
    expect(document.exitFullscreen).toHaveBeenCalledTimes(2);
    expect(button(texts.fullscreen)).toBeTruthy();
  });

  it("does not take another element's full screen for its own", async () => {
    fullscreen = fakeFullscreen();
    render();
    const other = document.body.appendChild(document.createElement("video"));
    await act(async () => {
      await other.requestFullscreen();
    });
    expect(button(texts.fullscreen)).toBeTruthy();
  });

  it("loads the 720 px frames in full screen on a small screen, keeping the angle while they come", async () => {
    fullscreen = fakeFullscreen();
    render(375);
    loadAll();
    key("ArrowRight");
    key("ArrowRight");
    expect(image().getAttribute("src")).toContain("/320/5.jpg");
    await act(async () => button(texts.fullscreen).click());
    const wanted = requested()
      .filter((i) => !i.settled)
      .map((i) => i.src);
    expect(wanted).toHaveLength(18);
    expect(wanted.every((src) => src.includes("/720/"))).toBe(true);
    // Until its 720 px frame is in, the 320 px one of the same angle stands in.
    expect(image().getAttribute("src")).toContain("/320/5.jpg");
    expect(screen.getByRole("progressbar")).toBeTruthy();
    loadAll();
    expect(image().getAttribute("src")).toContain("/720/5.jpg");
    expect(slider().getAttribute("aria-valuetext")).toBe("Beeld 3 van 18");
  });

  it("without the Fullscreen API, covers the window instead, keeps focus inside and closes on Esc", () => {
    render();
    loadAll();
    const outside = document.body.appendChild(document.createElement("button"));
    const open = button(texts.fullscreen);
    act(() => open.focus());
    act(() => open.click());
    const figure = document.querySelector(".viewer360__figure") as HTMLElement;
    expect(figure.className).toContain("is-overlay");
    expect(document.documentElement.classList.contains("viewer360-overlay-open")).toBe(true);
    expect(open.getAttribute("aria-label")).toBe(texts.exitFullscreen);
    // The page behind is out of reach of a screen reader's browse mode too.
    expect(outside.hasAttribute("inert")).toBe(true);

    // Tab from the last control comes round to the first, and back.
    act(() => turnRight().focus());
    fireEvent.keyDown(turnRight(), { key: "Tab" });
    expect(document.activeElement).toBe(slider());
    fireEvent.keyDown(slider(), { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(turnRight());
    // Focus that gets out anyway comes back.
    act(() => outside.focus());
    expect(figure.contains(document.activeElement)).toBe(true);

    act(() => slider().focus());
    fireEvent.keyDown(slider(), { key: "Escape" });
    expect(figure.className).not.toContain("is-overlay");
    expect(document.documentElement.classList.contains("viewer360-overlay-open")).toBe(false);
    expect(document.activeElement).toBe(open);
    expect(open.getAttribute("aria-label")).toBe(texts.fullscreen);
    expect(outside.hasAttribute("inert")).toBe(false);
  });
});

describe("the 360 viewer's analytics", () => {
  it("reports each way of using it once per page view, with the product, never per frame", async () => {
    const events: TrackDetail[] = [];
    const listener = (event: Event) => events.push((event as CustomEvent<TrackDetail>).detail);
    document.addEventListener(analyticsEventType, listener);
    try {
      render();
      loadAll();
      const stage = slider();
      stage.getBoundingClientRect = () => ({ left: 0, top: 0, width: 350, height: 350 }) as DOMRect;
      for (let i = 0; i < 5; i++) key("ArrowRight");
      key("End");
      for (const id of [1, 2]) {
        fireEvent.pointerDown(stage, { pointerId: id, clientX: 300, button: 0, pointerType: "mouse" });
        fireEvent.pointerMove(stage, { pointerId: id, clientX: 100, pointerType: "mouse" });
        fireEvent.pointerUp(stage, { pointerId: id, clientX: 100, pointerType: "mouse" });
      }
      act(() => button(texts.zoomIn).click());
      key("+");
      act(() => button(texts.fullscreen).click());
      act(() => button(texts.exitFullscreen).click());
      act(() => button(texts.fullscreen).click());
      await pause(20);
      const productId = exampleProps().productId;
      expect(events).toEqual(
        ["key", "drag", "zoom", "fullscreen"].map((via) => ({
          event: "viewer360.use",
          properties: { productId, via },
        })),
      );
    } finally {
      document.removeEventListener(analyticsEventType, listener);
    }
  });
});

describe("a viewer whose props break its contract", () => {
  it("keeps the first frame, is marked failed and reported once, naming the hook and the missing texts", async () => {
    showExample(({ texts: _left, ...rest }) => rest);
    const report = vi.fn();
    const hook = { kind: "island", name: "viewer360", react: true, load: async () => viewer360 } as const;
    await createRuntime([hook], document, report).scan(document);
    const root = document.querySelector<HTMLElement>('[data-island="viewer360"]');
    expect(root?.dataset.islandState).toBe("failed");
    expect(root?.querySelector("img.viewer360__image")).not.toBeNull();
    expect(report).toHaveBeenCalledTimes(1);
    expect(String(report.mock.calls[0]?.[0])).toMatch(/"viewer360".*texts/);
  });
});
