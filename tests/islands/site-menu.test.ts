// @vitest-environment happy-dom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { start } from "../../islands/site-menu/site-menu.ts";
import { type TestShop, testShop } from "../support/app.ts";

/** The shop's real header, as the home page renders it. */
let shop: TestShop;
let headerHtml = "";
beforeAll(async () => {
  shop = await testShop();
  const body = (await shop.app.inject({ url: "/" })).body;
  headerHtml = body.slice(body.indexOf("<header"), body.indexOf("</header>") + 9);
});
afterAll(() => shop.close());

let compact = true;
const changeListeners: Array<(event: { matches: boolean }) => void> = [];

function render() {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: compact,
    media: query,
    addEventListener: (_: string, listener: (event: { matches: boolean }) => void) =>
      changeListeners.push(listener),
  }));
  document.body.innerHTML = `${headerHtml}<main><a href="/elders" id="after">Elders</a></main>`;
  start(document);
  const menu = document.querySelector("details[data-site-menu]") as HTMLDetailsElement;
  const button = menu.querySelector("summary") as HTMLElement;
  const panel = menu.querySelector(".site-menu__panel") as HTMLElement;
  return { menu, button, panel };
}

const key = (target: Element, key: string, shiftKey = false) =>
  target.dispatchEvent(new KeyboardEvent("keydown", { key, shiftKey, bubbles: true, cancelable: true }));

afterEach(() => {
  vi.unstubAllGlobals();
  changeListeners.splice(0);
  document.body.innerHTML = "";
  document.documentElement.removeAttribute("style");
  compact = true;
});

describe("the header's menu drawer", () => {
  it("opens as a modal drawer: focus inside, the page's scroll locked, the close button shown", () => {
    const { menu, button, panel } = render();
    expect(menu.open).toBe(false);
    expect(button.getAttribute("aria-expanded")).toBe("false");
    button.click();
    expect(menu.open).toBe(true);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect(panel.getAttribute("role")).toBe("dialog");
    expect(panel.getAttribute("aria-modal")).toBe("true");
    expect(panel.contains(document.activeElement)).toBe(true);
    expect(document.documentElement.style.overflow).toBe("hidden");
    expect(panel.querySelector<HTMLButtonElement>("[data-site-menu-close]")?.hidden).toBe(false);
    // Every navigation item and both languages are in the drawer.
    const names = [...panel.querySelectorAll("a, [aria-current]")].map((a) => a.textContent?.trim());
    expect(names).toEqual(expect.arrayContaining(["Home", "Klantenservice", "Nederlands", "Deutsch"]));
  });

  it("keeps Tab and Shift+Tab inside the drawer", () => {
    const { button, panel } = render();
    button.click();
    const inside = [...panel.querySelectorAll<HTMLElement>("a[href], button:not([hidden])")];
    const first = inside[0] as HTMLElement;
    const last = inside[inside.length - 1] as HTMLElement;
    last.focus();
    key(last, "Tab");
    expect(document.activeElement).toBe(first);
    key(first, "Tab", true);
    expect(document.activeElement).toBe(last);
  });

  it("closes on Escape, unlocks the page and gives focus back to the menu button", () => {
    const { menu, button, panel } = render();
    button.click();
    key(document.activeElement as Element, "Escape");
    expect(menu.open).toBe(false);
    expect(document.activeElement).toBe(button);
    expect(document.documentElement.style.overflow).toBe("");
    expect(panel.hasAttribute("role")).toBe(false);
  });

  it("closes with its close button, a second press on the menu button, or a tap beside it", () => {
    const { menu, button } = render();
    button.click();
    (menu.querySelector("[data-site-menu-close]") as HTMLButtonElement).click();
    expect(menu.open).toBe(false);
    button.click();
    button.click();
    expect(menu.open).toBe(false);
    button.click();
    menu.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(menu.open).toBe(false);
    expect(document.documentElement.style.overflow).toBe("");
  });

  it("lets go of the page when the window widens past 725 px with the drawer open", () => {
    const { menu, button } = render();
    button.click();
    for (const listener of changeListeners) listener({ matches: false });
    expect(menu.open).toBe(false);
    expect(document.documentElement.style.overflow).toBe("");
  });
});
