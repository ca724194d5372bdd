// @vitest-environment happy-dom
import { fireEvent, getByLabelText } from "@testing-library/dom";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mount } from "../../islands/add-to-cart-bar/add-to-cart-bar.ts";
import { mount as mountOptions } from "../../islands/product-options/product-options.ts";
import { flushPageState } from "../../islands/runtime/history-state.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { FakeObserver } from "../support/fake-intersection-observer.ts";

let shop: TestShop;
const pages = new Map<string, string>();
const book = "/assortiment/fotoboeken/exclusief-fotoboek";
const canvas = "/assortiment/wanddecoratie/foto-op-canvas?orientatie=liggend&formaat=60x40";
beforeAll(async () => {
  shop = await testShop();
  for (const url of [book, canvas, "/sortiment/fotobuecher/exklusives-fotobuch"])
    pages.set(url, (await shop.app.inject({ url })).body);
});
afterAll(() => shop.close());

/** A matchMedia whose answer the test sets, as resizing across 725 px does. */
function fakeWidth(narrow: boolean) {
  const listeners = new Set<() => void>();
  const state = { narrow };
  vi.stubGlobal("matchMedia", (query: string) => ({
    get matches() {
      return query.includes("725") ? state.narrow : false;
    },
    media: query,
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
  }));
  return (next: boolean) => {
    state.narrow = next;
    for (const fn of listeners) fn();
  };
}

const unmounts: Array<() => void> = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount();
  flushPageState();
  FakeObserver.all = [];
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The real product page with its options island and the bar mounted, on a small screen unless told. */
function open(url = book, narrow = true) {
  const html = pages.get(url) ?? "";
  document.documentElement.lang = /<html lang="(\w+)"/.exec(html)?.[1] ?? "nl";
  document.body.innerHTML = html.slice(html.indexOf("<body>") + 6, html.indexOf("</body>"));
  window.history.replaceState(null, "", url);
  const resize = fakeWidth(narrow);
  vi.stubGlobal("IntersectionObserver", FakeObserver);
  const options = document.querySelector<HTMLElement>('[data-island="product-options"]') as HTMLElement;
  const bar = document.querySelector<HTMLElement>('[data-island="add-to-cart-bar"]') as HTMLElement;
  unmounts.push(mountOptions(options), mount(bar));
  const region = document.getElementById("add-to-cart") as HTMLElement;
  // One observer watches the viewport, the other everything above it.
  const [inView, above] = ["0px", "100000px 0px -100% 0px"].map(
    (margin) => FakeObserver.all.find((o) => o.options.rootMargin === margin) as FakeObserver,
  ) as [FakeObserver, FakeObserver];
  expect([...inView.targets, ...above.targets]).toEqual([region, region]);
  /** Where the add-to-cart region now is: in view, scrolled past (above), or not reached yet (below). */
  const report = (where: "in view" | "partly above" | "above" | "below") => {
    for (const [observer, intersecting] of [
      [inView, where === "in view" || where === "partly above"],
      [above, where === "above" || where === "partly above"],
    ] as const)
      observer.callback(
        [{ target: region, isIntersecting: intersecting } as unknown as IntersectionObserverEntry],
        observer as unknown as IntersectionObserver,
      );
  };
  const button = bar.querySelector<HTMLButtonElement>("button") as HTMLButtonElement;
  const text = (selector: string) => bar.querySelector(selector)?.textContent?.replace(/\s/g, " ");
  return { options, bar, button, region: report, resize, text };
}

const state = (bar: HTMLElement) => bar.dataset.barState;

describe("the add-to-cart bar on a small screen", () => {
  it("shows once the add-to-cart form is scrolled past, and hides when it is back in view", () => {
    const { bar, region } = open();
    expect(bar.hidden).toBe(false);
    region("in view");
    expect(state(bar)).toBe("hidden");
    region("above");
    expect(state(bar)).toBe("shown");
    expect(document.documentElement.dataset.addToCartBar).toBe("shown");
    region("partly above");
    expect(state(bar)).toBe("hidden");
    expect(document.documentElement.dataset.addToCartBar).toBeUndefined();
  });

  it("does not show before the shopper has reached the form", () => {
    const { bar, region } = open();
    region("below");
    expect(state(bar)).toBe("hidden");
  });

  it("names the region, and repeats the server's option, price and button text", () => {
    const { bar, button, text } = open();
    expect(bar.tagName).toBe("SECTION");
    expect(bar.getAttribute("aria-label")).toBe("Snel bestellen");
    expect(bar.querySelector("h1, h2, h3, [role='status'], [aria-live]")).toBeNull();
    expect(text("[data-bar-choice]")).toBe("Liggend, 30x21 cm");
    expect(text("[data-bar-price]")).toBe("€ 49,99");
    expect(button.textContent).toBe("In winkelwagen");
  });

  it("follows the option the shopper chooses above it", () => {
    const { options, text } = open();
    const size = getByLabelText(options, "Formaat") as HTMLSelectElement;
    size.value = "40x30";
    fireEvent.change(size);
    expect(text("[data-bar-choice]")).toBe("Liggend, 40x30 cm");
    expect(text("[data-bar-price]")).toBe("€ 74,99");
  });

  it("disables its button, as the form's, for a size that cannot be ordered now", () => {
    const { options, button } = open(canvas);
    expect(button.disabled).toBe(false);
    const size = getByLabelText(options, "Formaat") as HTMLSelectElement;
    size.value = "90x60";
    fireEvent.change(size);
    expect(button.disabled).toBe(true);
  });

  it("submits the real add-to-cart form, with its button as the submitter", () => {
    const { button } = open();
    const form = document.getElementById("add-to-cart-form") as HTMLFormElement;
    expect(button.getAttribute("form")).toBe("add-to-cart-form");
    expect(button.form).toBe(form);
    const submitted = vi.fn((event: SubmitEvent) => event.preventDefault());
    form.addEventListener("submit", submitted);
    button.click();
    expect(submitted).toHaveBeenCalledTimes(1);
    expect(submitted.mock.calls[0]?.[0].submitter).toBe(button);
  });

  it("steps aside while the shopper types, so it never sits on the on-screen keyboard", () => {
    const { bar, region } = open();
    region("above");
    const quantity = document.querySelector<HTMLInputElement>('input[name="quantity"]') as HTMLInputElement;
    fireEvent.focusIn(quantity);
    expect(state(bar)).toBe("hidden");
    fireEvent.focusOut(quantity);
    expect(state(bar)).toBe("shown");
    // A link or button does not bring up a keyboard.
    fireEvent.focusIn(document.querySelector("a[href]") as HTMLElement);
    expect(state(bar)).toBe("shown");
  });

  it("scrolls an element that gets focus behind it up above it", () => {
    const { bar, region } = open();
    vi.spyOn(window, "requestAnimationFrame").mockImplementation((run) => {
      run(0);
      return 0;
    });
    vi.spyOn(bar, "offsetHeight", "get").mockReturnValue(64);
    vi.stubGlobal("innerHeight", 800);
    const scrolled: number[] = [];
    vi.spyOn(window, "scrollBy").mockImplementation(((options: ScrollToOptions) => {
      scrolled.push(options.top ?? 0);
    }) as typeof window.scrollBy);
    region("above");
    const link = document.querySelector<HTMLElement>(".related a[href], footer a[href]") as HTMLElement;
    vi.spyOn(link, "getBoundingClientRect").mockReturnValue({ top: 760, bottom: 784 } as DOMRect);
    fireEvent.focusIn(link);
    // 784 - (800 - 64 - 8): the link's bottom ends 8 px above the bar.
    expect(scrolled).toEqual([56]);

    // A focused element well clear of the bar stays where it is.
    vi.spyOn(link, "getBoundingClientRect").mockReturnValue({ top: 300, bottom: 324 } as DOMRect);
    fireEvent.focusIn(link);
    expect(scrolled).toEqual([56]);
  });

  it("never shows above 725 px, and shows when the window narrows past the form", () => {
    const { bar, region, resize } = open(book, false);
    region("above");
    expect(state(bar)).toBe("hidden");
    resize(true);
    expect(state(bar)).toBe("shown");
    resize(false);
    expect(state(bar)).toBe("hidden");
  });

  it("speaks German on the German page", () => {
    const { bar, button, text } = open("/sortiment/fotobuecher/exklusives-fotobuch");
    expect(bar.getAttribute("aria-label")).toBe("Schnell bestellen");
    expect(button.textContent).toBe("In den Einkaufswagen");
    expect(text("[data-bar-price]")).toMatch(/€$/);
  });

  it("is hidden again, as without JavaScript, once taken away", () => {
    const { bar, region } = open();
    region("above");
    for (const unmount of unmounts.splice(0)) unmount();
    expect(bar.hidden).toBe(true);
    expect(document.documentElement.dataset.addToCartBar).toBeUndefined();
  });
});
