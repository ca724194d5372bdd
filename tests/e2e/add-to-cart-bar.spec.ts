import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

const book = "/assortiment/fotoboeken/exclusief-fotoboek";

const bar = (page: Page) => page.getByRole("region", { name: "Snel bestellen" });
const anyBar = (page: Page) => page.locator('[data-island="add-to-cart-bar"]');
const cartCount = (page: Page) => page.locator(".site-header .cart-link__count");

/** Scrolls so the add-to-cart form has gone out of view at the top, `beyond` px ago. */
async function scrollPastForm(page: Page, beyond = 40): Promise<void> {
  await page.evaluate((px) => {
    const region = document.getElementById("add-to-cart");
    if (region) window.scrollBy(0, region.getBoundingClientRect().bottom + px);
  }, beyond);
}

async function scrollToForm(page: Page): Promise<void> {
  await page.locator("#add-to-cart-form").evaluate((form) => form.scrollIntoView({ block: "center" }));
}

async function mounted(page: Page): Promise<void> {
  await expect(anyBar(page)).toHaveAttribute("data-island-state", "mounted");
  await expect(page.locator('[data-island="product-options"]')).toHaveAttribute(
    "data-island-state",
    "mounted",
  );
}

// The small screen's journeys run once, at 375 px (@once); the large screen's set their own widths.
test.describe("The add-to-cart bar on a small screen @js-only @once", () => {
  test("keeps the chosen option, its price and the button in reach once the form is scrolled past", async ({
    page,
    situation,
  }) => {
    await page.goto(book);
    await mounted(page);
    await expect(bar(page), situation).toBeHidden();

    await scrollPastForm(page);
    await expect(bar(page), situation).toBeVisible();
    await expect(bar(page)).toContainText("Liggend, 30x21 cm");
    await expect(bar(page)).toContainText("€ 49,99");
    await expect(bar(page).getByRole("button", { name: "In winkelwagen" })).toBeVisible();

    // Back at the form: the form's own button is there, the bar goes.
    await scrollToForm(page);
    await expect(bar(page), situation).toBeHidden();

    // A different option above: the bar names it once it shows again.
    await page.getByLabel("Formaat").selectOption("40x30");
    await scrollPastForm(page);
    await expect(bar(page), situation).toContainText("Liggend, 40x30 cm");
    await expect(bar(page)).toContainText("€ 74,99");

    // Its button posts the real form: the cart and the header's count follow.
    await expect(cartCount(page)).toHaveText("0 artikelen");
    await bar(page).getByRole("button", { name: "In winkelwagen" }).click();
    await expect(cartCount(page), situation).toHaveText("1 artikel");
    await expect(page.getByRole("status").filter({ hasText: "is toegevoegd" })).toContainText(
      "Exclusief fotoboek (Liggend, 40x30 cm) is toegevoegd aan je winkelwagen.",
    );
    // The confirmation takes focus where the form is, so the bar makes way.
    await expect(bar(page)).toBeHidden();
  });

  test("never covers the header, nor the field the shopper types in", async ({ page, situation }) => {
    await page.goto(book);
    await mounted(page);
    await scrollPastForm(page, 300);
    await expect(bar(page)).toBeVisible();
    // Scrolling up a little brings the header back, fixed at the top; the bar stays at the bottom.
    await page.mouse.wheel(0, -60);
    await expect(page.locator("[data-sticky-header]")).toHaveAttribute("data-sticky-state", "visible");
    const header = await page.locator("[data-sticky-header]").boundingBox();
    const box = await bar(page).boundingBox();
    expect(header && box && header.y + header.height <= box.y, situation).toBe(true);

    // Typing brings up the on-screen keyboard: the bar steps aside while a field has focus.
    await page.getByLabel("Aantal").focus();
    await expect(bar(page), situation).toBeHidden();
  });

  test("is accessible while it shows @axe", async ({ page, situation }) => {
    await page.goto(book);
    await mounted(page);
    await scrollPastForm(page);
    await expect(bar(page)).toBeVisible();
    await expectAccessible(page, `with the add-to-cart bar showing, ${situation}`);
  });
});

test.describe("The add-to-cart bar on a large screen @js-only @once", () => {
  test("never shows, wherever the shopper scrolls, from just above the breakpoint up", async ({ page }) => {
    for (const width of [726, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(book);
      await mounted(page);
      await scrollPastForm(page);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect(anyBar(page), `at ${width} px`).toBeHidden();
    }
  });
});

test.describe("The add-to-cart bar without JavaScript @no-js-only", () => {
  test("never shows: the form is the way to the cart", async ({ page, situation }) => {
    await page.goto(book);
    await scrollPastForm(page);
    await expect(anyBar(page), situation).toBeHidden();
    await expect(anyBar(page)).toHaveAttribute("hidden", "");
  });
});
