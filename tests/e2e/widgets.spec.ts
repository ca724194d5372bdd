import type { Page, TestInfo } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

const subscription = "/abonnement";
const product = "/assortiment/fotoboeken/exclusief-fotoboek";

const widthOf = (testInfo: TestInfo) => testInfo.project.use.viewport?.width ?? 1280;

const selectedTabs = (page: Page) => page.locator('[role="tab"][aria-selected="true"]');
const visibleSections = (page: Page) =>
  page
    .locator("section[data-tab-label]")
    .evaluateAll((sections) =>
      sections.filter((s) => (s as HTMLElement).offsetParent !== null).map((s) => s.id),
    );

/** axe, in the projects that run it (playwright.config.ts: runsAxe). */
async function checkAxe(page: Page, testInfo: TestInfo, where: string): Promise<void> {
  if (testInfo.project.metadata.axe) await expectAccessible(page, where);
}

test.describe("Tabs on the subscription page @js-only", () => {
  test("above 725 px exactly one tab is active; at or below, the sections are an accordion", async ({
    page,
    situation,
  }, testInfo) => {
    await page.goto(subscription);
    if (widthOf(testInfo) > 725) {
      await expect(page.getByRole("tablist"), situation).toBeVisible();
      await expect(selectedTabs(page)).toHaveCount(1);
      await expect(selectedTabs(page)).toHaveText("Abonnementen");
      expect(await visibleSections(page)).toEqual(["abonnementen"]);
      await page.getByRole("tab", { name: "Vragen" }).click();
      await expect(selectedTabs(page)).toHaveCount(1);
      await expect(selectedTabs(page)).toHaveText("Vragen");
      expect(await visibleSections(page)).toEqual(["vragen"]);
      // Arrow keys move between tabs, one active at a time.
      await page.keyboard.press("ArrowLeft");
      await expect(selectedTabs(page)).toHaveText("Uploads");
      await page.keyboard.press("Home");
      await expect(selectedTabs(page)).toHaveText("Abonnementen");
    } else {
      await expect(page.getByRole("tablist"), situation).toHaveCount(0);
      const toggles = page.locator(".tabs__toggle");
      await expect(toggles).toHaveText(["Abonnementen", "Uploads", "Vragen"]);
      await expect(toggles.first()).toHaveAttribute("aria-expanded", "true");
      await page.getByRole("button", { name: "Vragen", exact: true }).click();
      expect(await visibleSections(page), situation).toEqual(["abonnementen", "vragen"]);
      await page.getByRole("button", { name: "Abonnementen", exact: true }).click();
      expect(await visibleSections(page), situation).toEqual(["vragen"]);
    }
    await checkAxe(page, testInfo, situation);
  });

  // Sets its own width, so "@once" (playwright.config.ts).
  test("at exactly 725 px the tabs are an accordion, at 726 px tabs again, keeping the active section @once", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 725, height: 800 });
    await page.goto(subscription);
    await expect(page.getByRole("tablist")).toHaveCount(0);
    await page.getByRole("button", { name: "Uploads", exact: true }).click();
    await expect(page.getByRole("button", { name: "Uploads", exact: true })).toHaveAttribute(
      "aria-expanded",
      "true",
    );

    await page.setViewportSize({ width: 726, height: 800 });
    await expect(page.getByRole("tablist")).toBeVisible();
    await expect(selectedTabs(page)).toHaveText("Uploads");
    await page.getByRole("tab", { name: "Vragen" }).click();

    await page.setViewportSize({ width: 725, height: 800 });
    await expect(page.getByRole("button", { name: "Vragen", exact: true })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    expect(await visibleSections(page)).toContain("vragen");
  });

  test("the address selects a tab by its link text, case and accents ignored", async ({
    page,
    situation,
  }, testInfo) => {
    for (const [hash, label] of [
      ["#UPLOADS", "Uploads"],
      ["#vrágen", "Vragen"],
    ] as const) {
      await page.goto(`${subscription}${hash}`);
      if (widthOf(testInfo) > 725) await expect(selectedTabs(page), situation).toHaveText(label);
      else
        await expect(page.getByRole("button", { name: label, exact: true }), situation).toHaveAttribute(
          "aria-expanded",
          "true",
        );
      await expect(page.locator(`#${label.toLowerCase()}`)).toBeInViewport();
    }
  });

  test("'view uploads' switches to the uploads tab and brings it into view; back and forward follow", async ({
    page,
    situation,
  }, testInfo) => {
    await page.goto(subscription);
    const wide = widthOf(testInfo) > 725;
    await page.getByRole("link", { name: "Bekijk je uploads" }).click();
    await expect(page).toHaveURL(/#uploads$/);
    if (wide) await expect(selectedTabs(page), situation).toHaveText("Uploads");
    else
      await expect(page.getByRole("button", { name: "Uploads", exact: true })).toHaveAttribute(
        "aria-expanded",
        "true",
      );
    await expect(page.locator("#uploads"), situation).toBeInViewport();
    await expect(page.locator("#uploads")).toContainText("Je hebt nog geen foto's geüpload.");

    if (wide) {
      await page.getByRole("tab", { name: "Vragen" }).click();
      await expect(page).toHaveURL(/#vragen$/);
      await page.goBack();
      await expect(selectedTabs(page), situation).toHaveText("Uploads");
      await page.goBack();
      await expect(selectedTabs(page), situation).toHaveText("Abonnementen");
      await page.goForward();
      await expect(selectedTabs(page), situation).toHaveText("Uploads");
    }
  });
});

test.describe("Tabs without JavaScript @no-js-only", () => {
  test("show a list of links, then every panel one under another", async ({ page, situation }) => {
    await page.goto(subscription);
    await expect(page.locator(".tabs__index a"), situation).toHaveText(["Abonnementen", "Uploads", "Vragen"]);
    expect(await visibleSections(page)).toEqual(["abonnementen", "uploads", "vragen"]);
    await page.getByRole("link", { name: "Bekijk je uploads" }).click();
    await expect(page).toHaveURL(/#uploads$/);
    await expect(page.locator("#uploads h2"), situation).toBeInViewport();
  });
});

test.describe("Modals @js-only", () => {
  test("lock the page's scroll, keep focus inside, close with Escape and give focus back", async ({
    page,
    situation,
  }, testInfo) => {
    // Arriving at #vragen, the tabs scroll it into view smoothly; that scroll could still be
    // moving the page when the modal opens. Instant (as with reduced motion), it is done first.
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${subscription}#vragen`);
    const trigger = page.locator("#vragen").getByRole("button", { name: "Meer over opzeggen" });
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: "Opzeggen en je foto's" });
    await expect(dialog, situation).toBeVisible();
    await expect(dialog).toContainText("Opzeggen kan tot de laatste dag van de maand");

    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
    const before = await page.evaluate(() => window.scrollY);
    await page.mouse.move(10, 10);
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.scrollY), `the page stays put ${situation}`).toBe(before);

    for (let i = 0; i < 4; i++) {
      await page.keyboard.press("Tab");
      expect(
        await dialog.evaluate((d) => d.contains(document.activeElement)),
        "focus stays in the dialog",
      ).toBe(true);
    }
    await checkAxe(page, testInfo, situation);

    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(trigger).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");
  });

  test("close with their close button, and show content from the page itself", async ({
    page,
    situation,
  }) => {
    await page.goto(subscription);
    const trigger = page.getByRole("button", { name: "Vergelijk alle abonnementen" });
    await expect(page.locator("#compare-plans"), "the page's own copy hides").toBeHidden();
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: "Alle abonnementen naast elkaar" });
    await expect(dialog.getByRole("table"), situation).toContainText("Premium");
    await dialog.getByRole("button", { name: "Sluiten" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(trigger).toBeFocused();
  });
});

test.describe("Modals whose code does not arrive @js-only", () => {
  test("leave the content they would show on the page @once", async ({ page, situation }) => {
    await page.route(/\/chunks\/modal-[\w-]+\.js$/, (route) => route.abort("failed"));
    await page.goto(subscription);
    // The rest of the page is enhanced (tabs); the comparison stays a link to the page's own copy.
    await expect(page.getByRole("tablist").or(page.locator(".tabs__toggle").first())).toBeVisible();
    await expect(page.locator("#compare-plans table"), situation).toBeVisible();
    await page.getByRole("link", { name: "Vergelijk alle abonnementen" }).click();
    await expect(page.locator("#compare-plans table")).toBeInViewport();
  });
});

test.describe("Modals without JavaScript @no-js-only", () => {
  test("are links to a page with the same content, or to the part of this page", async ({
    page,
    situation,
  }) => {
    await page.goto(subscription);
    await page.getByRole("link", { name: "Meer over opzeggen" }).first().click();
    await expect(page).toHaveURL(/\/abonnement\/uitleg\/opzeggen$/);
    await expect(page.locator("h1"), situation).toHaveText("Opzeggen en je foto's");
    await expect(page.locator("main")).toContainText("Opzeggen kan tot de laatste dag van de maand");
    await page.goBack();
    await page.getByRole("link", { name: "Vergelijk alle abonnementen" }).click();
    await expect(page.locator("#compare-plans table"), situation).toBeInViewport();
  });
});

test.describe("Tooltips @js-only", () => {
  const tip = (page: Page) => page.locator(".plan--recommended details.tooltip").first();
  const toggle = (page: Page) => tip(page).getByRole("button", { name: "Uitleg: opslag" });
  const open = async (page: Page) => {
    await toggle(page).click();
    await expect(tip(page)).toHaveAttribute("data-tooltip-state", "open");
  };
  const closed = (page: Page) => expect(tip(page)).toHaveAttribute("data-tooltip-state", "closed");
  /** Spec: at most 450 px wide, or 90% of the screen where that is less; and inside the screen. */
  const expectWithinLimits = async (page: Page, width: number, situation: string) => {
    const box = await tip(page).locator(".tooltip__bubble").boundingBox();
    expect(box?.width ?? 0, situation).toBeLessThanOrEqual(Math.min(450, width * 0.9) + 0.5);
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width, "within the screen").toBe(true);
  };

  test("open on a click, with a name and the role of a button, and stay within 450 px or 90% of the screen", async ({
    page,
    situation,
  }, testInfo) => {
    await page.goto(subscription);
    await tip(page).scrollIntoViewIfNeeded();
    await expect(toggle(page), situation).toHaveAttribute("aria-expanded", "false");
    await open(page);
    await expect(toggle(page)).toHaveAttribute("aria-expanded", "true");
    const bubble = tip(page).locator(".tooltip__bubble");
    await expect(bubble).toBeVisible();
    await expect(bubble.getByRole("status")).toHaveText(/volle resolutie|zonder ze kleiner/);
    await expectWithinLimits(page, widthOf(testInfo), situation);
    await checkAxe(page, testInfo, situation);
  });

  test("stay within 90% of a screen between 480 and 500 px wide, where that is less than 450 px @once", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 490, height: 800 });
    await page.goto(subscription);
    await tip(page).scrollIntoViewIfNeeded();
    await open(page);
    await expectWithinLimits(page, 490, "at 490 px");
  });

  test("close on a second click, a click elsewhere, the close control and Escape", async ({ page }) => {
    await page.goto(subscription);
    await tip(page).scrollIntoViewIfNeeded();
    await open(page);
    await toggle(page).click();
    await closed(page);

    await open(page);
    await page.locator("h1").click();
    await closed(page);

    await open(page);
    await tip(page).getByRole("button", { name: "Sluiten" }).click();
    await closed(page);
    await expect(toggle(page)).toBeFocused();

    await open(page);
    await page.keyboard.press("Escape");
    await closed(page);
  });

  test("close when the window is resized and when the page's height changes", async ({ page }, testInfo) => {
    await page.goto(subscription);
    await tip(page).scrollIntoViewIfNeeded();
    await open(page);
    await page.setViewportSize({ width: widthOf(testInfo), height: 700 });
    await closed(page);

    await open(page);
    await page.evaluate(() => {
      const block = document.createElement("div");
      block.style.height = "400px";
      document.querySelector("main")?.append(block);
    });
    await closed(page);
  });
});

test.describe("Tooltips without JavaScript @no-js-only", () => {
  test("keep their text reachable in a details element", async ({ page, situation }) => {
    await page.goto(subscription);
    const tip = page.locator(".plan--recommended details.tooltip").first();
    await expect(tip.locator(".tooltip__text"), situation).toBeHidden();
    await tip.locator("summary").click();
    await expect(tip.locator(".tooltip__text")).toBeVisible();
    await expect(tip.getByRole("button", { name: "Sluiten" })).toBeHidden();
  });
});

test.describe("The transform panel on a photo book's page @js-only", () => {
  const panel = (page: Page) => page.locator("details.transform");
  /** Records each state the panel passes through with its transition, as it happens (a slow machine may read late). */
  const watchStates = (page: Page) =>
    panel(page).evaluate((el) => {
      const seen: string[][] = [];
      Object.assign(window, { transformStates: seen });
      new MutationObserver(() =>
        seen.push([
          (el as HTMLElement).dataset.transformState ?? "",
          getComputedStyle(el).transitionDuration,
        ]),
      ).observe(el, { attributeFilter: ["data-transform-state"] });
    });
  const states = (page: Page) =>
    page.evaluate(() => (window as unknown as { transformStates: string[][] }).transformStates);

  async function checkAt(page: Page, width: number, column: number) {
    await panel(page).scrollIntoViewIfNeeded();
    await watchStates(page);
    await panel(page).locator("summary").click();
    await expect(panel(page)).toHaveAttribute("data-transform-state", "open");
    expect(await states(page), `opening at ${width} px`).toEqual([
      ["opening", "0.5s, 0.5s, 0.5s"],
      ["open", "0s"],
    ]);
    const box = await panel(page).boundingBox();
    if (width > 800) expect([box?.width, box?.height], `at ${width} px`).toEqual([800, 310]);
    else if (width > 600) expect([box?.width, box?.height], `at ${width} px`).toEqual([580, 330]);
    else expect(Math.round(box?.width ?? 0), `full width at ${width} px`).toBe(column);
    // Wider than its column just above 800 (or 600) px, yet inside the window: no sideways scrolling.
    expect(
      (box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width,
      `inside the window at ${width} px`,
    ).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expect(panel(page).getByRole("img")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sluiten" })).toBeFocused();

    await page.keyboard.press("Escape");
    await expect(panel(page)).toHaveAttribute("data-transform-state", "closed");
    expect((await states(page)).slice(2), `closing at ${width} px`).toEqual([
      ["closing", "0.4s, 0.4s, 0.4s"],
      ["closed", "0s"],
    ]);
    await expect(panel(page).locator("summary")).toBeFocused();
  }

  test("opens in 500 ms to its size for the window, closes in 400 ms", async ({ page }, testInfo) => {
    const width = widthOf(testInfo);
    await page.goto(product);
    const column = await page.locator(".product-spread").evaluate((el) => Math.round(el.clientWidth));
    await checkAt(page, width, column);
  });

  test("at 725 px measures 580 × 330 @once", async ({ page }) => {
    await page.setViewportSize({ width: 725, height: 800 });
    await page.goto(product);
    await checkAt(page, 725, 0);
  });

  test("at 820 px, where its column is narrower, still measures 800 × 310 @once", async ({ page }) => {
    await page.setViewportSize({ width: 820, height: 800 });
    await page.goto(product);
    await checkAt(page, 820, 0);
  });

  test("skips the animation for shoppers who ask for less motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(product);
    await panel(page).scrollIntoViewIfNeeded();
    await panel(page).locator("summary").click();
    expect(await panel(page).getAttribute("data-transform-state")).toBe("open");
    await page.getByRole("button", { name: "Sluiten" }).click();
    expect(await panel(page).getAttribute("data-transform-state")).toBe("closed");
  });
});

test.describe("The transform panel without JavaScript @no-js-only", () => {
  test("is a details element with the same content", async ({ page, situation }) => {
    await page.goto(product);
    const panel = page.locator("details.transform");
    await panel.locator("summary").click();
    await expect(panel.getByRole("img", { name: /opengeslagen fotoboek/ }), situation).toBeVisible();
  });
});
