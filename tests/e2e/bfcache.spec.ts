import { type Browser, chromium, type Page } from "@playwright/test";
import { findChromium } from "../../scripts/find-chromium.mjs";
import { expect, test } from "./fixtures.ts";

/**
 * The back/forward cache, in a Chromium of its own: Playwright's browser runs with
 * --disable-back-forward-cache. A restored page fires no load, so Back waits for the commit.
 */
let browser: Browser;
test.beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: findChromium(),
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
    ignoreDefaultArgs: ["--disable-back-forward-cache"],
  });
});
test.afterAll(() => browser.close());

const restoredFromCache = (page: Page) =>
  page.evaluate(() => (window as unknown as { restored?: boolean }).restored === true);

async function walk(page: Page) {
  await page.goto("/");
  await page.locator('html[data-enhanced="ready"]').waitFor({ state: "attached" });
  await page.goto("/assortiment/fotoboeken");
  await page.locator('html[data-enhanced="ready"]').waitFor({ state: "attached" });
  await page.locator("a.product-card__link").first().click();
  await expect(page.locator("#product-title")).toBeVisible();
}

test.describe("Back restores from the back/forward cache @js-only @once", () => {
  test("home, category, product, Back: for a visitor, and for a shopper whose cart changed in another tab", async ({
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL, viewport: { width: 375, height: 667 } });
    await context.addInitScript(() => {
      window.addEventListener("pageshow", (event) => {
        if (event.persisted) Object.assign(window, { restored: true });
      });
    });
    const page = await context.newPage();
    await walk(page);
    await page.goBack({ waitUntil: "commit" });
    await expect(page.locator("h1")).toHaveText("Fotoboeken");
    expect(await restoredFromCache(page), "a visitor's category page").toBe(true);
    await page.goBack({ waitUntil: "commit" });
    await expect(page.locator("#home-title")).toBeVisible();
    expect(await restoredFromCache(page), "a visitor's home page").toBe(true);

    // Now a shopper: one item in the cart, then the walk again.
    await page.goto("/assortiment/fotoboeken/exclusief-fotoboek");
    await page.locator('html[data-enhanced="ready"]').waitFor({ state: "attached" });
    await page.locator(".add-to-cart__submit").click();
    const badge = page.locator(".site-header .cart-link__count");
    await expect(badge).toHaveAttribute("data-count", "1");
    await walk(page);
    await expect(badge).toHaveAttribute("data-count", "1");

    // Another tab adds a second item while this one shows the product.
    const other = await context.newPage();
    await other.goto("/assortiment/fotoboeken/exclusief-fotoboek");
    await other.locator('html[data-enhanced="ready"]').waitFor({ state: "attached" });
    await other.locator(".add-to-cart__submit").click();
    await expect(other.locator(".site-header .cart-link__count")).toHaveAttribute("data-count", "2");
    await other.close();

    await page.goBack({ waitUntil: "commit" });
    await expect(page.locator("h1")).toHaveText("Fotoboeken");
    expect(await restoredFromCache(page), "a shopper's category page").toBe(true);
    await expect(badge, "the restored page's header shows the current count").toHaveAttribute(
      "data-count",
      "2",
    );
    await expect(badge).toHaveText("2 artikelen");
    await context.close();
  });
});
