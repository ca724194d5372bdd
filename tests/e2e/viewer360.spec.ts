import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

const book = "/assortiment/fotoboeken/exclusief-fotoboek";
const buch = "/sortiment/fotobuecher/exklusives-fotobuch";

const viewer = (page: Page) => page.locator('[data-island="viewer360"]');
const stage = (page: Page) => viewer(page).getByRole("slider");
const picture = (page: Page) => viewer(page).locator("img.viewer360__image");
const shownFrame = async (page: Page) => Number(await picture(page).getAttribute("data-frame"));
/** The scale of the picture's zoom (1 when it has none). */
const zoomScale = (page: Page) =>
  picture(page).evaluate((img) => new DOMMatrixReadOnly(getComputedStyle(img).transform).a || 1);

async function openViewer(page: Page, path = book) {
  await page.goto(path);
  await expect(viewer(page)).toHaveAttribute("data-island-state", "mounted");
  // Every frame in: the progress bar says so by going away.
  await expect(viewer(page).getByRole("progressbar")).toHaveCount(0, { timeout: 15_000 });
}

test.describe("The 360-degree viewer's keyboard, zoom and full screen @js-only", () => {
  test("turns with the arrow keys one step at a time, Home and End go to the ends", async ({
    page,
    viewport,
    situation,
  }) => {
    const wide = (viewport?.width ?? 1280) > 725;
    await openViewer(page);
    const slider = stage(page);
    await expect(slider, situation).toHaveAccessibleName("360°-weergave: Exclusief fotoboek, Liggend");
    await expect(slider).toHaveAttribute("aria-valuetext", `Beeld 1 van ${wide ? 36 : 18}`);
    await slider.focus();
    await page.keyboard.press("ArrowRight");
    // Small screens load every second frame, so one step there is two frames.
    expect(await shownFrame(page), situation).toBe(wide ? 2 : 3);
    await expect(slider).toHaveAttribute("aria-valuenow", "2");
    await page.keyboard.press("End");
    expect(await shownFrame(page)).toBe(wide ? 36 : 35);
    await expect(slider).toHaveAttribute("aria-valuetext", wide ? "Beeld 36 van 36" : "Beeld 18 van 18");
    await page.keyboard.press("ArrowRight");
    expect(await shownFrame(page), "no wrapping past the last frame").toBe(wide ? 36 : 35);
    await page.keyboard.press("Home");
    expect(await shownFrame(page)).toBe(1);
    await page.keyboard.press("ArrowLeft");
    expect(await shownFrame(page), "no wrapping before the first frame").toBe(1);
    // Upright swipes stay with the page on touch screens.
    await expect(slider).toHaveCSS("touch-action", "pan-y");
  });

  test("speaks German to German shoppers", async ({ page }) => {
    await openViewer(page, buch);
    await expect(stage(page)).toHaveAccessibleName("360°-Ansicht: Exklusives Fotobuch, Querformat");
    await stage(page).focus();
    await page.keyboard.press("ArrowRight");
    await expect(stage(page)).toHaveAttribute("aria-valuetext", /^Bild 2 von (36|18)$/);
    await expect(viewer(page).getByRole("button", { name: "Vollbild" })).toBeVisible();
    await expect(viewer(page).getByRole("button", { name: "Vergrößern" })).toBeVisible();
  });

  test("zooms with ctrl and the wheel, and a plain wheel still scrolls the page", async ({
    page,
    situation,
  }) => {
    await openViewer(page);
    const box = await stage(page).boundingBox();
    if (!box) throw new Error("the viewer has no box");
    // What became of each wheel turn once the viewer had seen it.
    await page.evaluate(() => {
      const seen: Array<[boolean, boolean]> = [];
      (window as unknown as { wheels: typeof seen }).wheels = seen;
      window.addEventListener("wheel", (event) => seen.push([event.ctrlKey, event.defaultPrevented]));
    });
    const wheels = () => page.evaluate(() => (window as unknown as { wheels: unknown }).wheels);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.down("Control");
    await page.mouse.wheel(0, -200);
    await page.keyboard.up("Control");
    await expect.poll(() => zoomScale(page), { message: situation }).toBeGreaterThan(1.3);
    await expect(stage(page), "zoomed in, every touch on it moves the picture").toHaveCSS(
      "touch-action",
      "none",
    );
    // Ctrl+wheel zoomed the picture, not the page: the browser was told to leave it alone.
    expect(await wheels()).toEqual([[true, true]]);

    await viewer(page).getByRole("button", { name: "Zoom terugzetten" }).click();
    await expect.poll(() => zoomScale(page)).toBe(1);
    const before = await page.evaluate(() => window.scrollY);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 200);
    await expect
      .poll(() => page.evaluate(() => window.scrollY), { message: situation })
      .toBeGreaterThan(before);
    expect(await zoomScale(page)).toBe(1);
    expect(await wheels()).toEqual([
      [true, true],
      [false, false],
    ]);
  });

  test("zooms with its buttons and the + key, and a drag then moves the picture", async ({ page }) => {
    await openViewer(page);
    await viewer(page).getByRole("button", { name: "Inzoomen" }).click();
    await expect.poll(() => zoomScale(page)).toBe(1.5);
    await stage(page).focus();
    await page.keyboard.press("+");
    await expect.poll(() => zoomScale(page)).toBe(2);
    const box = await stage(page).boundingBox();
    if (!box) throw new Error("the viewer has no box");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(await shownFrame(page), "zoomed in, a drag does not turn").toBe(1);
    const shift = await picture(page).evaluate(
      (img) => new DOMMatrixReadOnly(getComputedStyle(img).transform).e,
    );
    expect(shift).toBeCloseTo(60, 0);
    await page.keyboard.press("-");
    await expect.poll(() => zoomScale(page)).toBe(1.5);
  });

  test("opens full screen with its button and Esc leaves it, focus back on the button", async ({
    page,
    situation,
  }) => {
    await openViewer(page);
    const open = viewer(page).getByRole("button", { name: "Volledig scherm" });
    await open.click();
    await expect
      .poll(() => page.evaluate(() => document.fullscreenElement?.className ?? ""), { message: situation })
      .toContain("viewer360__figure");
    const close = viewer(page).getByRole("button", { name: "Volledig scherm sluiten" });
    await expect(close).toBeVisible();
    // The picture fills the screen.
    const box = await viewer(page).locator(".viewer360__figure").boundingBox();
    expect(box?.height, situation).toBe(page.viewportSize()?.height);
    // In full screen even a phone gets the 720 px frames.
    await expect(picture(page)).toHaveAttribute("src", /\/720\/1\.jpg/);

    await page.keyboard.press("Escape");
    await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
    await expect(open).toBeVisible();
    await expect(open).toBeFocused();

    await open.click();
    await expect(close).toBeVisible();
    await close.click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
    await expect(open).toBeVisible();
  });

  test("is accessible in full screen @axe", async ({ page, situation }) => {
    await openViewer(page);
    await viewer(page).getByRole("button", { name: "Volledig scherm" }).click();
    await expect(viewer(page).getByRole("button", { name: "Volledig scherm sluiten" })).toBeVisible();
    await viewer(page).getByRole("button", { name: "Inzoomen" }).click();
    await expectAccessible(page, `the viewer in full screen, zoomed in, ${situation}`);
  });
});
