// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
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
let texts: Viewer360Props["texts"];
beforeAll(async () => {
  example = await exampleHtml("viewer360");
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
/** Lets animation frames run, inside act so React applies their updates. */
const pause = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

beforeEach(() => {
  FakeImage.made = [];
  vi.stubGlobal("Image", FakeImage);
});
afterEach(() => {
  act(() => unmount?.());
  unmount = undefined;
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
    const progress = () => document.querySelector("progress");
    expect(progress()?.getAttribute("aria-label")).toBe(texts.loading);
    settle((src) => /\/([1-9]|1[0-8])\.jpg/.test(src), "load");
    expect(progress()?.getAttribute("value")).toBe("18");
    expect(screen.getByText("Beelden laden: 50%")).toBeTruthy();
    settle((src) => src.includes("/36.jpg"), "error");
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

  it("turns with a drag across the picture and stops at the ends", async () => {
    render();
    loadAll();
    const stage = slider();
    stage.getBoundingClientRect = () => ({ width: 350 }) as DOMRect;
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 100, button: 0, pointerType: "mouse" });
    await pause(5);
    // 350 px is the whole range of 35 steps: 50 px is five frames on.
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 150, pointerType: "mouse" });
    expect(shownFrame()).toBe(6);
    fireEvent.pointerMove(stage, { pointerId: 1, clientX: 900, pointerType: "mouse" });
    expect(shownFrame()).toBe(36);
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 900, pointerType: "mouse" });
    await pause(100);
    expect(shownFrame()).toBe(36);

    fireEvent.pointerDown(stage, { pointerId: 2, clientX: 500, button: 0, pointerType: "mouse" });
    fireEvent.pointerMove(stage, { pointerId: 2, clientX: -400, pointerType: "mouse" });
    fireEvent.pointerUp(stage, { pointerId: 2, clientX: -400, pointerType: "mouse" });
    expect(shownFrame()).toBe(1);
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
