// @vitest-environment happy-dom
import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mount } from "../../islands/tabs/tabs.tsx";

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

function render() {
  document.body.innerHTML = `
    <div class="tabs" data-island="tabs" data-tabs-label="Over het abonnement">
      <nav class="tabs__index"><ul><li><a href="#abonnementen">Abonnementen</a></li><li><a href="#uploads">Uploads</a></li><li><a href="#vragen">Vragen</a></li></ul></nav>
      <section id="abonnementen" data-tab-label="Abonnementen"><h2 class="tabs__heading">Abonnementen</h2><p>Plannen</p><a href="#uploads" id="view-uploads">Bekijk je uploads</a><a href="#aanmelden" id="to-signup">Aanmelden</a><form id="aanmelden"><input id="typed" aria-label="Naam"></form></section>
      <section id="uploads" data-tab-label="Uploads"><h2 class="tabs__heading">Uploads</h2><p>Je foto's</p></section>
      <section id="vragen" data-tab-label="Vragen"><h2 class="tabs__heading">Vragen</h2><p id="faq">Antwoorden</p></section>
    </div>`;
  act(() => {
    unmount = mount(document.querySelector("[data-island]") as HTMLElement);
  });
}

const selected = () => screen.getAllByRole("tab").filter((t) => t.getAttribute("aria-selected") === "true");
const visibleSections = () =>
  [...document.querySelectorAll("section[data-tab-label]")]
    .filter((s) => !s.closest("[inert], [hidden]"))
    .map((s) => s.id);

beforeEach(() => {
  window.history.replaceState(null, "", "/abonnement");
});
afterEach(() => {
  act(() => unmount?.());
  unmount = undefined;
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the tabs island above 725 px", () => {
  it("shows tabs with exactly one active, the first by default, and drops the list of links", () => {
    fakeMedia(false);
    render();
    expect(screen.getByRole("tablist").getAttribute("aria-label")).toBe("Over het abonnement");
    expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual([
      "Abonnementen",
      "Uploads",
      "Vragen",
    ]);
    expect(selected().map((t) => t.textContent)).toEqual(["Abonnementen"]);
    expect(visibleSections()).toEqual(["abonnementen"]);
    expect(document.querySelector(".tabs__index")).toBeNull();
  });

  it("switches with the arrow keys, Home and End, one tab active at a time, and records it in the address", () => {
    fakeMedia(false);
    render();
    const [first] = screen.getAllByRole("tab");
    act(() => first?.focus());
    fireEvent.keyDown(document.activeElement as Element, { key: "ArrowRight" });
    expect(selected().map((t) => t.textContent)).toEqual(["Uploads"]);
    expect(window.location.hash).toBe("#uploads");
    fireEvent.keyDown(document.activeElement as Element, { key: "End" });
    expect(selected().map((t) => t.textContent)).toEqual(["Vragen"]);
    fireEvent.keyDown(document.activeElement as Element, { key: "Home" });
    expect(selected().map((t) => t.textContent)).toEqual(["Abonnementen"]);
    expect(visibleSections()).toEqual(["abonnementen"]);
  });

  it("opens the tab the address names by its label, case and accents ignored", () => {
    fakeMedia(false);
    window.history.replaceState(null, "", "/abonnement#VRÁGEN");
    render();
    expect(selected().map((t) => t.textContent)).toEqual(["Vragen"]);
  });

  it("follows a link to another tab (the 'view uploads' trigger) and moves focus to that tab", () => {
    fakeMedia(false);
    render();
    act(() => {
      window.history.pushState(null, "", "#uploads");
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    expect(selected().map((t) => t.textContent)).toEqual(["Uploads"]);
    expect(document.activeElement?.textContent).toBe("Uploads");
  });

  it("opens the tab that holds an element the address points at", () => {
    fakeMedia(false);
    window.history.replaceState(null, "", "/abonnement#faq");
    render();
    expect(selected().map((t) => t.textContent)).toEqual(["Vragen"]);
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
    window.history.replaceState(null, "", "/abonnement#uploads");
    const scrolled = watchScrolling();
    render();
    placeAt({ aanmelden: 1500, "abonnementen-toggle": 200 });
    act(() => {
      window.history.pushState(null, "", "#aanmelden");
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    expect(screen.getByRole("button", { name: "Abonnementen" }).getAttribute("aria-expanded")).toBe("true");
    // The form's top, less the room kept above it (16 px; no sticky header in this page).
    expect(scrolled.at(-1)).toBe(1500 - 16);
  });

  it("bring the element into view when the shopper arrives with its fragment, or follows a link to it", () => {
    fakeMedia(true);
    window.history.replaceState(null, "", "/abonnement?abonnement=premium#aanmelden");
    const scrolled = watchScrolling();
    placeAt({ aanmelden: 900, "abonnementen-toggle": 100 });
    render();
    expect(scrolled.length).toBeGreaterThan(0);
    expect(new Set(scrolled)).toEqual(new Set([900 - 16]));

    // Already at #aanmelden, scrolled elsewhere: the link brings the form back.
    scrolled.length = 0;
    act(() => {
      document.getElementById("to-signup")?.click();
    });
    expect(scrolled).toEqual([900 - 16]);
  });

  it("switch sections on a click even when the address already ends in that fragment (no hashchange comes)", () => {
    fakeMedia(true);
    window.history.replaceState(null, "", "/abonnement#uploads");
    render();
    const uploads = screen.getByRole("button", { name: "Uploads" });
    expect(uploads.getAttribute("aria-expanded")).toBe("true");
    // The shopper closes the uploads again and, back in the plans, asks for the uploads once more.
    fireEvent.click(uploads);
    fireEvent.click(screen.getByRole("button", { name: "Abonnementen" }));
    window.history.replaceState(null, "", "/abonnement#uploads");
    expect(uploads.getAttribute("aria-expanded")).toBe("false");
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    act(() => {
      document.getElementById("view-uploads")?.dispatchEvent(click);
    });
    expect(click.defaultPrevented).toBe(true);
    expect(screen.getByRole("button", { name: "Uploads" }).getAttribute("aria-expanded")).toBe("true");
    expect(document.activeElement?.textContent).toBe("Uploads");
  });

  it("switch tabs on a click above 725 px, and put the fragment in the address", () => {
    fakeMedia(false);
    render();
    act(() => {
      document.getElementById("view-uploads")?.click();
    });
    expect(selected().map((t) => t.textContent)).toEqual(["Uploads"]);
    expect(window.location.hash).toBe("#uploads");
    expect(document.activeElement?.textContent).toBe("Uploads");
  });

  it("leave links elsewhere, and clicks with a modifier key, to the browser", () => {
    fakeMedia(false);
    render();
    const away = document.createElement("a");
    away.href = "/klantenservice#uploads";
    document.body.append(away);
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    away.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
    const withCtrl = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
    document.getElementById("view-uploads")?.dispatchEvent(withCtrl);
    expect(withCtrl.defaultPrevented).toBe(false);
    expect(selected().map((t) => t.textContent)).toEqual(["Abonnementen"]);
  });
});

describe("the tabs island at or below 725 px", () => {
  it("is an accordion whose sections open and close on their own", () => {
    fakeMedia(true);
    render();
    expect(screen.queryByRole("tablist")).toBeNull();
    const buttons = screen.getAllByRole("button");
    expect(buttons.map((b) => [b.textContent, b.getAttribute("aria-expanded")])).toEqual([
      ["Abonnementen", "true"],
      ["Uploads", "false"],
      ["Vragen", "false"],
    ]);
    fireEvent.click(buttons[2] as HTMLElement);
    expect(visibleSections()).toEqual(["abonnementen", "vragen"]);
    fireEvent.click(buttons[0] as HTMLElement);
    expect(visibleSections()).toEqual(["vragen"]);
    expect(buttons[0]?.getAttribute("aria-expanded")).toBe("false");
  });

  it("keeps the active section when the window crosses the breakpoint, both ways", () => {
    const media = fakeMedia(false);
    render();
    fireEvent.click(screen.getByRole("tab", { name: "Uploads" }));
    media.set(true);
    expect(screen.getByRole("button", { name: "Uploads" }).getAttribute("aria-expanded")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "Vragen" }));
    media.set(false);
    expect(selected().map((t) => t.textContent)).toEqual(["Vragen"]);
  });

  it("moves the server's sections rather than copying them, so typed text survives", () => {
    const media = fakeMedia(false);
    render();
    const input = document.getElementById("typed") as HTMLInputElement;
    input.value = "Anna";
    media.set(true);
    media.set(false);
    expect(document.getElementById("typed")).toBe(input);
    expect(input.value).toBe("Anna");
    expect(document.querySelectorAll("#typed")).toHaveLength(1);
  });
});
