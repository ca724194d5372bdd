// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { mount } from "../../islands/tooltip/tooltip.ts";

const unmounts: Array<() => void> = [];

function render(count = 1) {
  document.body.innerHTML = `${Array.from(
    { length: count },
    (_, i) => `
    <ul><li>Opslag <details class="tooltip" data-island="tooltip" id="tip-${i}">
      <summary class="tooltip__toggle"><span aria-hidden="true">i</span><span class="visually-hidden">Uitleg ${i}</span></summary>
      <span class="tooltip__bubble"><span class="tooltip__text" data-tooltip-text>Uitleg nummer ${i}</span>
      <button type="button" class="tooltip__close" data-tooltip-close hidden aria-label="Sluiten">×</button></span>
    </details></li></ul>`,
  ).join("")}<p id="elsewhere">Ergens anders</p>`;
  const tips = [...document.querySelectorAll<HTMLDetailsElement>("details[data-island]")];
  for (const tip of tips) unmounts.push(mount(tip));
  return tips;
}

const button = (details: HTMLDetailsElement) =>
  details.querySelector("button.tooltip__toggle") as HTMLButtonElement;
const toggle = (details: HTMLDetailsElement) => button(details).click();
const isOpen = (details: HTMLDetailsElement) => details.dataset.tooltipState === "open";

afterEach(() => {
  for (const u of unmounts.splice(0)) u();
  document.body.innerHTML = "";
});

describe("the tooltip island", () => {
  it("puts a real button with a name and expanded state in the summary's place, and shows its close button", () => {
    const [tip] = render() as [HTMLDetailsElement];
    expect(tip.querySelector<HTMLButtonElement>("[data-tooltip-close]")?.hidden).toBe(false);
    expect(tip.dataset.tooltipState).toBe("closed");
    expect(button(tip).textContent).toContain("Uitleg 0");
    expect(button(tip).getAttribute("aria-expanded")).toBe("false");
    const bubble = tip.querySelector(".tooltip__bubble") as HTMLElement;
    expect(button(tip).getAttribute("aria-controls")).toBe(bubble.id);
    expect(bubble.hidden).toBe(true);
  });

  it("opens on a click and closes on a second one, announcing its text as a status", async () => {
    const [tip] = render() as [HTMLDetailsElement];
    toggle(tip);
    expect(tip.dataset.tooltipState).toBe("open");
    expect(button(tip).getAttribute("aria-expanded")).toBe("true");
    const text = tip.querySelector("[data-tooltip-text]") as HTMLElement;
    expect(text.getAttribute("role")).toBe("status");
    await new Promise((r) => setTimeout(r, 50));
    expect(text.textContent).toBe("Uitleg nummer 0");
    toggle(tip);
    expect(tip.dataset.tooltipState).toBe("closed");
  });

  it("closes on a click elsewhere, but not on a click inside it", () => {
    const [tip] = render() as [HTMLDetailsElement];
    toggle(tip);
    tip.querySelector<HTMLElement>("[data-tooltip-text]")?.click();
    expect(isOpen(tip)).toBe(true);
    document.getElementById("elsewhere")?.click();
    expect(isOpen(tip)).toBe(false);
  });

  it("closes with its close button and with Escape, giving focus back to its toggle", () => {
    const [tip] = render() as [HTMLDetailsElement];
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

  it("closes when the window is resized", () => {
    const [tip] = render() as [HTMLDetailsElement];
    toggle(tip);
    window.dispatchEvent(new Event("resize"));
    expect(isOpen(tip)).toBe(true); // a resize event without a new size changes nothing
    (window as unknown as { innerWidth: number }).innerWidth = window.innerWidth - 100;
    window.dispatchEvent(new Event("resize"));
    expect(isOpen(tip)).toBe(false);
  });

  it("keeps only one tip open at a time", () => {
    const [a, b] = render(2) as [HTMLDetailsElement, HTMLDetailsElement];
    toggle(a);
    toggle(b);
    expect(isOpen(a)).toBe(false);
    expect(isOpen(b)).toBe(true);
  });
});
