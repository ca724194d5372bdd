// @vitest-environment happy-dom
import { fireEvent, waitFor } from "@testing-library/dom";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { start } from "../../islands/ajax/ajax.ts";
import { analyticsEventType, type TrackDetail } from "../../islands/analytics/track.ts";
import { mount } from "../../islands/support-search/support-search.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { closeExamples, renderExample } from "../support/examples.ts";

/**
 * The combobox with the real ajax behaviour and the real server: the pattern library's
 * example, the suggestions fetched from the shop's own search route.
 */
let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
  start(document);
});
afterAll(async () => {
  await closeExamples();
  await shop.close();
});

let unmount: (() => void) | undefined;
const tracked: TrackDetail[] = [];
const record = (event: Event) => tracked.push((event as CustomEvent<TrackDetail>).detail);
document.addEventListener(analyticsEventType, record);

afterEach(() => {
  unmount?.();
  unmount = undefined;
  document.body.innerHTML = "";
  tracked.length = 0;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** fetch, answered by the shop through app.inject; the requested addresses are kept. */
function serveFromShop(): string[] {
  const asked: string[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const address = new URL(url);
    asked.push(address.pathname + address.search);
    const res = await shop.app.inject({
      url: address.pathname + address.search,
      headers: { host: "shop.test", ...(init.headers as Record<string, string>) },
    });
    return new Response(res.body, {
      status: res.statusCode,
      headers: {
        "content-type": String(res.headers["content-type"]),
        "x-ajax-fragment": String(res.headers["x-ajax-fragment"] ?? ""),
      },
    });
  });
  return asked;
}

async function render(locale: "nl" | "de" = "nl") {
  const [element] = await renderExample("support-search", "default", locale);
  if (!element) throw new Error("the example has no support-search island");
  unmount = mount(element);
  const input = element.querySelector("input") as HTMLInputElement;
  const listbox = element.querySelector('[role="listbox"]') as HTMLElement;
  const status = element.querySelector("[data-support-search-status]") as HTMLElement;
  const form = element.querySelector("form") as HTMLFormElement;
  return { element, input, listbox, status, form };
}

/** Types the words as a shopper does: in the focused field, one input event. */
function type(input: HTMLInputElement, words: string) {
  input.focus();
  input.value = words;
  fireEvent.input(input);
}

const key = (input: HTMLInputElement, name: string) => fireEvent.keyDown(input, { key: name });
const options = (listbox: HTMLElement) => [...listbox.querySelectorAll<HTMLElement>('[role="option"]')];
const activeOption = (input: HTMLInputElement) =>
  document.getElementById(input.getAttribute("aria-activedescendant") ?? "");

describe("the support search field, with JavaScript", () => {
  it("becomes a combobox that controls its listbox, closed at first", async () => {
    const { input, listbox } = await render();
    expect(input.getAttribute("role")).toBe("combobox");
    expect(input.getAttribute("aria-autocomplete")).toBe("list");
    expect(input.getAttribute("aria-expanded")).toBe("false");
    expect(input.getAttribute("aria-controls")).toBe(listbox.id);
    expect(listbox.hidden).toBe(true);
  });

  it("shows the suggestions once typing pauses and says how many there are", async () => {
    const asked = serveFromShop();
    const { input, listbox, status } = await render();
    type(input, "lever");
    type(input, "levertijd");
    await waitFor(() => expect(input.getAttribute("aria-expanded")).toBe("true"));
    // One request, for the words as they were when the shopper paused.
    expect(asked).toEqual(["/klantenservice/zoeken?q=levertijd"]);
    expect(listbox.hidden).toBe(false);
    expect(
      options(listbox).map((o) => o.querySelector(".support-search__option-title")?.textContent),
    ).toEqual([
      "Wanneer is mijn bestelling in huis?",
      "Leveren jullie ook op feestdagen?",
      "Wat is spoedproductie?",
      "Algemene voorwaarden",
      "Verzending en levering",
    ]);
    expect(status.textContent).toBe("5 suggesties");
    expect(input.hasAttribute("aria-activedescendant")).toBe(false);
  });

  it("moves the active option with the arrow keys, wrapping at the ends, while focus stays in the field", async () => {
    serveFromShop();
    const { input, listbox } = await render();
    type(input, "levertijd");
    await waitFor(() => expect(options(listbox)).toHaveLength(5));
    const [first, second] = options(listbox) as [HTMLElement, HTMLElement];
    const last = options(listbox).at(-1);
    key(input, "ArrowDown");
    expect(activeOption(input)).toBe(first);
    expect(first.getAttribute("aria-selected")).toBe("true");
    key(input, "ArrowDown");
    expect(activeOption(input)).toBe(second);
    expect(first.hasAttribute("aria-selected")).toBe(false);
    key(input, "ArrowUp");
    key(input, "ArrowUp");
    expect(activeOption(input)).toBe(last);
    key(input, "ArrowDown");
    expect(activeOption(input)).toBe(first);
    expect(document.activeElement).toBe(input);
  });

  it("opens the active suggestion with Enter, counting the choice without the words typed", async () => {
    serveFromShop();
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    const { input, listbox } = await render();
    type(input, "levertijd");
    await waitFor(() => expect(options(listbox)).toHaveLength(5));
    key(input, "ArrowDown");
    key(input, "ArrowDown");
    key(input, "Enter");
    expect(assign).toHaveBeenCalledWith("/klantenservice/faq/levering/feestdagen");
    expect(tracked).toEqual([
      { event: "search.submit", properties: { via: "suggest", results: 5 } },
      { event: "search.result_click", properties: { kind: "faq", position: 2 } },
    ]);
    expect(JSON.stringify(tracked)).not.toContain("levertijd");
  });

  it("opens a suggestion on a click too, without the field losing focus on the press", async () => {
    serveFromShop();
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => {});
    const { input, listbox } = await render();
    type(input, "levertijd");
    await waitFor(() => expect(options(listbox)).toHaveLength(5));
    const third = options(listbox)[2] as HTMLElement;
    expect(fireEvent.mouseDown(third)).toBe(false);
    fireEvent.click(third.querySelector("span") as HTMLElement);
    expect(assign).toHaveBeenCalledWith("/klantenservice/faq/fotoboeken/spoedproductie");
  });

  it("lets Enter submit the form to the results page while no option is active", async () => {
    serveFromShop();
    const { input, listbox, form } = await render();
    type(input, "levertijd");
    await waitFor(() => expect(options(listbox)).toHaveLength(5));
    const submitted = vi.fn((event: Event) => event.preventDefault());
    // After the island's own listener, as the browser's navigation would come.
    document.addEventListener("submit", submitted);
    try {
      expect(key(input, "Enter")).toBe(true);
      // The browser's implicit submission, which happy-dom leaves out.
      form.requestSubmit();
      expect(submitted).toHaveBeenCalledTimes(1);
      expect(tracked).toEqual([{ event: "search.submit", properties: { via: "page", results: 5 } }]);
    } finally {
      document.removeEventListener("submit", submitted);
    }
  });

  it("closes with Escape and keeps the words; a second Escape empties the field", async () => {
    serveFromShop();
    const { input, listbox, status } = await render();
    type(input, "levertijd");
    await waitFor(() => expect(input.getAttribute("aria-expanded")).toBe("true"));
    key(input, "ArrowDown");
    key(input, "Escape");
    expect(input.getAttribute("aria-expanded")).toBe("false");
    expect(listbox.hidden).toBe(true);
    expect(input.hasAttribute("aria-activedescendant")).toBe(false);
    expect(input.value).toBe("levertijd");
    // ArrowDown opens the same suggestions again.
    key(input, "ArrowDown");
    expect(input.getAttribute("aria-expanded")).toBe("true");
    key(input, "Escape");
    key(input, "Escape");
    expect(input.value).toBe("");
    expect(options(listbox)).toHaveLength(0);
    await waitFor(() => expect(status.textContent).toBe(""));
  });

  it("closes when focus leaves the field (Tab)", async () => {
    serveFromShop();
    const { input } = await render();
    type(input, "levertijd");
    await waitFor(() => expect(input.getAttribute("aria-expanded")).toBe("true"));
    input.blur();
    expect(input.getAttribute("aria-expanded")).toBe("false");
  });

  it("says when nothing matches, and keeps the list closed", async () => {
    serveFromShop();
    const { input, listbox, status } = await render();
    type(input, "xyzzy");
    await waitFor(() => expect(status.textContent).toBe("Geen suggesties"));
    expect(listbox.hidden).toBe(true);
    expect(input.getAttribute("aria-expanded")).toBe("false");
  });

  it("offers the results page when there are more results than suggestions", async () => {
    serveFromShop();
    const { input, listbox, form } = await render();
    type(input, "foto");
    await waitFor(() => expect(input.getAttribute("aria-expanded")).toBe("true"));
    const all = options(listbox).at(-1) as HTMLElement;
    expect(all.dataset.searchKind).toBe("all");
    const submitted = vi.fn((event: Event) => event.preventDefault());
    form.addEventListener("submit", submitted);
    key(input, "ArrowUp");
    expect(activeOption(input)).toBe(all);
    key(input, "Enter");
    expect(submitted).toHaveBeenCalledTimes(1);
    expect(tracked).toEqual([
      { event: "search.submit", properties: { via: "page", results: Number(all.dataset.searchTotal) } },
    ]);
  });

  it("speaks German on German pages", async () => {
    serveFromShop();
    const { input, status, form } = await render("de");
    expect(form.getAttribute("action")).toBe("/kundenservice/suche");
    type(input, "Rechnung");
    await waitFor(() => expect(status.textContent).toMatch(/^\d+ Vorschl(ag|äge)$/));
  });

  it("gives the field back as it was when it unmounts", async () => {
    const { input } = await render();
    unmount?.();
    unmount = undefined;
    expect(input.hasAttribute("role")).toBe(false);
    expect(input.hasAttribute("aria-expanded")).toBe(false);
  });
});
