import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

const product = "/assortiment/fotoboeken/exclusief-fotoboek";

test.describe("The compact header on a small screen @once", () => {
  test("is one row of at most 64 px whose menu reaches every navigation item, with axe closed and open", async ({
    page,
    situation,
    scripts,
  }) => {
    await page.goto(product);
    const header = page.locator(".site-header");
    const height = await header.evaluate((el) => el.getBoundingClientRect().height);
    expect(height, `header height ${situation}`).toBeLessThanOrEqual(64);
    // The product's name and price are in the first screen (375 x 800 here; 667 tall too: see bench).
    for (const part of ["#product-title", ".product__offer [data-product-price]"]) {
      const bottom = await page.locator(part).evaluate((el) => el.getBoundingClientRect().bottom);
      expect(bottom, `${part} in the first screen ${situation}`).toBeLessThanOrEqual(667);
    }
    const nav = page.getByRole("navigation", { name: "Hoofdmenu" });
    await expect(nav, situation).toBeHidden();
    await expectAccessible(page, `with the menu closed ${situation}`);

    const menuButton = page.locator("summary.site-menu__button");
    await expect(menuButton).toBeVisible();
    await menuButton.click();
    await expect(nav, situation).toBeVisible();
    for (const name of ["Home", "Fotoboeken", "Fotoafdrukken", "Wanddecoratie", "Klantenservice"]) {
      const link = nav.getByRole("link", { name, exact: true });
      await expect(link, `${name} ${situation}`).toBeInViewport({ ratio: 1 });
    }
    await expect(page.getByRole("link", { name: "Deutsch" })).toBeInViewport({ ratio: 1 });
    // Opening the menu does not grow the header: it lies over the page.
    expect(await header.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(64);
    await expectAccessible(page, `with the menu open ${situation}`);

    if (scripts === "on") {
      // The drawer: focus inside, the page locked, Escape closes it and focus returns.
      await expect(page.locator(".site-menu__panel")).toHaveAttribute("role", "dialog");
      expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe("hidden");
      await page.keyboard.press("Escape");
      await expect(nav).toBeHidden();
      await expect(menuButton).toBeFocused();
      expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe("");
    }

    // A navigation item leads where it says (with JavaScript the menu was closed by Escape).
    if (scripts === "on") await menuButton.click();
    await nav.getByRole("link", { name: "Wanddecoratie", exact: true }).click();
    await expect(page.locator("h1")).toHaveText("Wanddecoratie");
  });
});
