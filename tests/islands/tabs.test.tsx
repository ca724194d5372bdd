// @vitest-environment happy-dom
import { act, fireEvent, screen } from "@testing-library/react";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushPageState } from "../../islands/runtime/history-state.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { mount } from "../../islands/tabs/tabs.tsx";
import { closeExamples, exampleHtml } from "../support/examples.ts";

/** A matchMedia whose answer the test changes, as crossing the 725 px breakpoint does. */
function fakeMedia(narrow: boolean) {
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
  return {
    set(next: boolean) {
      state.narrow = next;
      act(() => {
        for (const fn of listeners) fn();
      });
    },
  };
}

let unmount: (() => void) | undefined;
const html = await exampleHtml("tabs");

/**
 * The pattern library's tabs: Eerste, Tweede and Derde. The first holds a field and a link
 * to a sentence in the third (#pattern-tabs-note); the second links to the third section.
 */
function render() {
  document.body.innerHTML = html;
  act(() => {
    unmount = mount(document.querySelector('[data-island="tabs"]') as HTMLElement);
  });
}

const toThird = () =>
  document.querySelector<HTMLAnchorElement>('#tweede a[href="#derde"]') as HTMLAnchorElement;
const toNote = () =>
  document.querySelector<HTMLAnchorElement>('a[href="#pattern-tabs-note"]') as HTMLAnchorElement;

const selected = () => screen.getAllByRole("tab").filter((t) => t.getAttribute("aria-selected") === "true");
const visibleSections = () =>
  [...document.querySelectorAll("section[data-tab-label]")]
    .filter((s) => !s.closest("[inert], [hidden]"))
    .map((s) => s.id);

afterAll(closeExamples);
beforeEach(() => {
  window.history.replaceState(null, "", "/patroonbibliotheek");
});
afterEach(() => {
  act(() => unmount?.());
  unmount = undefined;
  flushPageState();
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the tabs island above 725 px", () => {
  it("shows tabs with exactly one active, the first by default, and drops the list of links", () => {
    fakeMedia(false);
    render();
    expect(screen.getByRole("tablist").getAttribute("aria-label")).toBe("Voorbeeld van tabbladen");
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual(["Eerste", "Tweede", "Derde"]);
    expect(selected().map((t) => t.textContent)).toEqual(["Eerste"]);
    expect(visibleSections()).toEqual(["eerste"]);
    expect(document.querySelector(".tabs__index")).toBeNull();
  });

  it("switches with the arrow keys, Home and End, one tab active at a time, and records it in the address", () => {
    fakeMedia(false);
    render();
    const [first] = screen.getAllByRole("tab");
    act(() => first?.focus());
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowRight" });
    expect(selected().map((t) => t.textContent)).toEqual(["Tweede"]);
    expect(window.location.hash).toBe("#tweede");
    fireEvent.keyDown(document.activeElement as Element, { key: "End" });
    expect(selected().map((t) => t.textContent)).toEqual(["Derde"]);
    fireEvent.keyDown(document.activeElement as Element, { key: "Home" });
    expect(selected().map((t) => t.textContent)).toEqual(["Eerste"]);
    expect(visibleSections()).toEqual(["eerste"]);
  });

  it("opens the tab the address names by its label, case and accents ignored", () => {
    fakeMedia(false);
    window.history.replaceState(null, "", "/patroonbibliotheek#DÉRDE");
    render();
    expect(selected().map((t) => t.textContent)).toEqual(["Derde"]);
  });

  it("follows an address naming another tab (a link elsewhere on the page) and moves focus to that tab", () => {
    fakeMedia(false);
    render();
    act(() => {
      window.history.pushState(null, "", "#tweede");
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    expect(selected().map((t) => t.textContent)).toEqual(["Tweede"]);
    expect(document.activeElement?.textContent).toBe("Tweede");
  });

  it("opens the tab that holds an element the address points at", () => {
    fakeMedia(false);
    window.history.replaceState(null, "", "/patroonbibliotheek#pattern-tabs-note");
    render();
    expect(selected().map((t) => t.textContent)).toEqual(["Derde"]);
  });
});

describe("links to a section or to something inside one", () => {
  /** Where the island scrolled the window to, and an element's place on the page as the test says. */
  function watchScrolling() {
    const scrolled: number[] = [];
    vi.spyOn(window, "scrollTo").mockImplementation(((options: ScrollToOptions) => {
      scrolled.push(options.top ?? -1);
    }) as typeof window.scrollTo);
    return scrolled;
  }
  /** Puts elements (by id) at a place on the page; everything else is at the top. */
  const placeAt = (tops: Record<string, number>) =>
    vi.spyOn(Element.prototype, "getBoundingClientRect").mockImplementation(function (this: Element) {
      return { top: tops[this.id] ?? 0 } as DOMRect;
    });

  it("open the section holding the element the address names and bring that element, not the section's button, into view", () => {
    fakeMedia(true);
    window.history.replaceState(null, "", "/patroonbibliotheek#tweede");
    const scrolled = watchScrolling();
    render();
    placeAt({ "pattern-tabs-note": 1500, "derde-toggle": 200 });
    act(() => {
      window.history.pushState(null, "", "#pattern-tabs-note");
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    expect(screen.getByRole("button", { name: "Derde" }).getAttribute("aria-expanded")).toBe("true");
    // The sentence's top, less the room kept above it (16 px; no sticky header in this page).
    expect(scrolled.at(-1)).toBe(1500 - 16);
  });

  it("bring the element into view when the shopper arrives with its fragment, or follows a link to it", () => {
    fakeMedia(true);
    window.history.replaceState(null, "", "/patroonbibliotheek?voorbeeld=1#pattern-tabs-note");
    const scrolled = watchScrolling();
    placeAt({ "pattern-tabs-note": 900, "derde-toggle": 100 });
    render();
    expect(scrolled.length).toBeGreaterThan(0);
    expect(new Set(scrolled)).toEqual(new Set([900 - 16]));

    // Already at #pattern-tabs-note, scrolled elsewhere: the link brings the sentence back.
    scrolled.length = 0;
    act(() => {
      toNote().click();
    });
    expect(scrolled).toEqual([900 - 16]);
  });

  it("switch sections on a click even when the address already ends in that fragment (no hashchange comes)", () => {
    fakeMedia(true);
    window.history.replaceState(null, "", "/patroonbibliotheek#derde");
    render();
    const third = screen.getByRole("button", { name: "Derde" });
    expect(third.getAttribute("aria-expanded")).toBe("true");
    // The shopper closes the third again and, in the second, asks for the third once more.
    fireEvent.click(third);
    fireEvent.click(screen.getByRole("button", { name: "Tweede" }));
    window.history.replaceState(null, "", "/patroonbibliotheek#derde");
    expect(third.getAttribute("aria-expanded")).toBe("false");
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    act(() => {
      toThird().dispatchEvent(click);
    });
    expect(click.defaultPrevented).toBe(true);
    expect(screen.getByRole("button", { name: "Derde" }).getAttribute("aria-expanded")).toBe("true");
    expect(document.activeElement?.textContent).toBe("Derde");
  });

  it("switch tabs on a click above 725 px, and put the fragment in the address", () => {
    fakeMedia(false);
    render();
    fireEvent.click(screen.getByRole("tab", { name: "Tweede" }));
    act(() => {
      toThird().click();
    });
    expect(selected().map((t) => t.textContent)).toEqual(["Derde"]);
    expect(window.location.hash).toBe("#derde");
    expect(document.activeElement?.textContent).toBe("Derde");
  });

  it("leave links elsewhere, and clicks with a modifier key, to the browser", () => {
    fakeMedia(false);
    render();
    const away = document.createElement("a");
    away.href = "/klantenservice#tweede";
    document.body.append(away);
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    away.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
    const withCtrl = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
    toThird().dispatchEvent(withCtrl);
    expect(withCtrl.defaultPrevented).toBe(false);
    expect(selected().map((t) => t.textContent)).toEqual(["Eerste"]);
  });
});

describe("the tabs island at or below 725 px", () => {
  it("is an accordion whose sections open and close on their own", () => {
    fakeMedia(true);
    render();
    expect(screen.queryByRole("tablist")).toBeNull();
    const buttons = screen.getAllByRole("button");
    expect(buttons.map((b) => [b.textContent, b.getAttribute("aria-expanded")])).toEqual([
      ["Eerste", "true"],
      ["Tweede", "false"],
      ["Derde", "false"],
    ]);
    fireEvent.click(buttons[2] as HTMLElement);
    expect(visibleSections()).toEqual(["eerste", "derde"]);
    fireEvent.click(buttons[0] as HTMLElement);
    expect(visibleSections()).toEqual(["derde"]);
    expect(buttons[0]?.getAttribute("aria-expanded")).toBe("false");
  });

  it("keeps the active section when the window crosses the breakpoint, both ways", () => {
    const media = fakeMedia(false);
    render();
    fireEvent.click(screen.getByRole("tab", { name: "Tweede" }));
    media.set(true);
    expect(screen.getByRole("button", { name: "Tweede" }).getAttribute("aria-expanded")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "Derde" }));
    media.set(false);
    expect(selected().map((t) => t.textContent)).toEqual(["Derde"]);
  });

  it("moves the server's sections rather than copying them, so typed text survives", () => {
    const media = fakeMedia(false);
    render();
    const input = document.getElementById("pattern-tabs-name") as HTMLInputElement;
    input.value = "Anna";
    media.set(true);
    media.set(false);
    expect(document.getElementById("pattern-tabs-name")).toBe(input);
    expect(input.value).toBe("Anna");
    expect(document.querySelectorAll("#pattern-tabs-name")).toHaveLength(1);
  });
});

describe("the tabs after Back or Forward", () => {
  const key = "tabs#pattern-tabs";
  const expanded = () =>
    screen.getAllByRole("button").map((b) => [b.textContent, b.getAttribute("aria-expanded")]);

  it("keep the active tab and the open sections in the history entry, each entry its own", () => {
    fakeMedia(true);
    render();
    fireEvent.click(screen.getByRole("button", { name: "Derde" }));
    flushPageState();
    expect(window.location.hash).toBe("#derde");
    expect(window.history.state).toEqual({
      fotohoek: { [key]: { active: "derde", open: ["eerste", "derde"] } },
    });
  });

  it("come back as the shopper left them, and leave the scroll position to the browser", () => {
    fakeMedia(true);
    const scrollTo = vi.spyOn(window, "scrollTo").mockImplementation(() => {});
    window.history.replaceState(
      { fotohoek: { [key]: { active: "tweede", open: ["tweede", "derde"] } } },
      "",
      "/patroonbibliotheek#tweede",
    );
    render();
    expect(expanded()).toEqual([
      ["Eerste", "false"],
      ["Tweede", "true"],
      ["Derde", "true"],
    ]);
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it("above 725 px bring back the tab the entry kept, even where the address has no fragment", () => {
    fakeMedia(false);
    window.history.replaceState({ fotohoek: { [key]: { active: "derde", open: ["derde"] } } }, "");
    render();
    expect(selected().map((t) => t.textContent)).toEqual(["Derde"]);
  });

  it("ignore a kept section the page no longer has", () => {
    fakeMedia(false);
    window.history.replaceState({ fotohoek: { [key]: { active: "vierde", open: ["vierde"] } } }, "");
    render();
    expect(selected().map((t) => t.textContent)).toEqual(["Eerste"]);
  });
});

describe("tabs whose props lack their label", () => {
  it("stay the server's list and sections, marked failed, and are reported once by name and prop", async () => {
    fakeMedia(false);
    document.body.innerHTML = html;
    const script = document.querySelector('[data-island="tabs"] > script[data-props]') as HTMLScriptElement;
    script.textContent = "{}";
    const report = vi.fn();
    const hook = {
      kind: "island",
      name: "tabs",
      react: true,
      load: () => import("../../islands/tabs/tabs.tsx"),
    } as const;
    await createRuntime([hook], document, report).scan(document);
    const tabs = document.querySelector('[data-island="tabs"]') as HTMLElement;
    expect(tabs.getAttribute("data-island-state")).toBe("failed");
    expect(tabs.querySelector(".tabs__index")).not.toBeNull();
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[0]).toContain('"tabs"');
    expect(report.mock.calls[0]?.[0]).toMatch(/data-props\W+label/);
  });
});
