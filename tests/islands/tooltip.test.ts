// @vitest-environment happy-dom
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { mount } from "../../islands/tooltip/tooltip.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

const unmounts: Array<() => void> = [];

/** The pattern library's examples: one tip in a list, and a second in a table cell. */
async function render(count = 1) {
  const html = [await exampleHtml("tooltip", "default"), await exampleHtml("tooltip", "inTable")];
  document.body.innerHTML = `${html.slice(0, count).join("")}<p id="elsewhere">Ergens anders</p>`;
  const tips = [...document.querySelectorAll<HTMLDetailsElement>('details[data-island="tooltip"]')];
  for (const tip of tips) unmounts.push(mount(tip));
  return tips;
}

const button = (details: HTMLDetailsElement) =>
  details.querySelector("button.tooltip__toggle") as HTMLButtonElement;
const toggle = (details: HTMLDetailsElement) => button(details).click();
const isOpen = (details: HTMLDetailsElement) => details.dataset.tooltipState === "open";

afterAll(closeExamples);

afterEach(() => {
  for (const u of unmounts.splice(0)) u();
  document.body.innerHTML = "";
});

describe("the tooltip island", () => {
  it("puts a real button with a name and expanded state in the summary's place, and shows its close button", async () => {
    const [tip] = (await render()) as [HTMLDetailsElement];
    expect(tip.querySelector<HTMLButtonElement>("[data-tooltip-close]")?.hidden).toBe(false);
    expect(tip.dataset.tooltipState).toBe("closed");
    expect(button(tip).textContent).toContain("Uitleg: gratis verzending");
    expect(button(tip).getAttribute("aria-expanded")).toBe("false");
    const bubble = tip.querySelector(".tooltip__bubble") as HTMLElement;
    expect(button(tip).getAttribute("aria-controls")).toBe(bubble.id);
    expect(bubble.hidden).toBe(true);
  });

  it("opens on a click and closes on a second one, announcing its text as a status", async () => {
    const [tip] = (await render()) as [HTMLDetailsElement];
    toggle(tip);
    expect(tip.dataset.tooltipState).toBe("open");
    expect(button(tip).getAttribute("aria-expanded")).toBe("true");
    const text = tip.querySelector("[data-tooltip-text]") as HTMLElement;
    expect(text.getAttribute("role")).toBe("status");
    await new Promise((r) => setTimeout(r, 50));
    expect(text.textContent).toBe(
      "Bij dit product betaal je geen verzendkosten, hoe groot je bestelling ook is.",
    );
    toggle(tip);
    expect(tip.dataset.tooltipState).toBe("closed");
  });

  it("closes on a click elsewhere, but not on a click inside it", async () => {
    const [tip] = (await render()) as [HTMLDetailsElement];
    toggle(tip);
    tip.querySelector<HTMLElement>("[data-tooltip-text]")?.click();
    expect(isOpen(tip)).toBe(true);
    document.getElementById("elsewhere")?.click();
    expect(isOpen(tip)).toBe(false);
  });

  it("closes with its close button and with Escape, giving focus back to its toggle", async () => {
    const [tip] = (await render()) as [HTMLDetailsElement];
    toggle(tip);
    tip.querySelector<HTMLButtonElement>("[data-tooltip-close]")?.click();
    expect(isOpen(tip)).toBe(false);
    expect(document.activeElement).toBe(button(tip));

    toggle(tip);
    tip.querySelector<HTMLButtonElement>("[data-tooltip-close]")?.focus();
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    expect(isOpen(tip)).toBe(false);
    expect(document.activeElement).toBe(button(tip));
  });

  it("closes when the window is resized", async () => {
    const [tip] = (await render()) as [HTMLDetailsElement];
    toggle(tip);
    window.dispatchEvent(new Event("resize"));
    expect(isOpen(tip)).toBe(true); // a resize event without a new size changes nothing
    (window as unknown as { innerWidth: number }).innerWidth = window.innerWidth - 100;
    window.dispatchEvent(new Event("resize"));
    expect(isOpen(tip)).toBe(false);
  });

  it("keeps only one tip open at a time", async () => {
    const [a, b] = (await render(2)) as [HTMLDetailsElement, HTMLDetailsElement];
    toggle(a);
    toggle(b);
    expect(isOpen(a)).toBe(false);
    expect(isOpen(b)).toBe(true);
  });
});
