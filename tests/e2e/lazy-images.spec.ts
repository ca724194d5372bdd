import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

/**
 * Images below the first screen wait until they come within 250 px of the viewport
 * (views/partials/lazy-load.eta); those in the first screen load with the page. Category
 * pages hold one row of cards today, all in the first screen at 1280 px, so the journey that
 * scrolls uses the home page, the whole range in the same card grid.
 */

const home = "/";
const category = "/assortiment/fotoboeken";
const product = "/assortiment/fotoboeken/exclusief-fotoboek";

/** Paths the page has asked the server for, as they happen. */
function requests(page: Page): string[] {
  const paths: string[] = [];
  page.on("request", (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

/** Resolves after the browser's next two rendering updates, by which it has told every observer what it sees. */
const rendered = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

const scrollTo = (page: Page, y: number) => page.evaluate((top) => window.scrollTo(0, top), y);

const naturalWidth = (img: Locator) => img.evaluate((el) => (el as HTMLImageElement).naturalWidth);

/** How far below the viewport's bottom edge the element starts, and its top on the page. */
const distance = (el: Locator) =>
  el.evaluate((node) => {
    const top = node.getBoundingClientRect().top;
    return { below: top - window.innerHeight, top: top + window.scrollY, viewport: window.innerHeight };
  });

test.describe("Images further down a page", () => {
  test("load only once the shopper scrolls within 250 px of them, each once @js-only", async ({
    page,
    situation,
  }) => {
    const asked = requests(page);
    await page.goto(home);
    const images = page.locator(".product-card img");
    await expect(images).toHaveCount(9);

    // The first row is in view on arrival: it loads with the page, without waiting for a script.
    for (let i = 0; i < 3; i++) {
      await expect(images.nth(i), `card ${i + 1}, ${situation}`).not.toHaveAttribute("data-lazy-src", /./);
      await expect.poll(() => naturalWidth(images.nth(i)), { message: `card ${i + 1}` }).toBeGreaterThan(0);
    }

    const last = images.last();
    const source = (await last.getAttribute("data-lazy-src")) ?? "";
    expect(source).toMatch(/^\/static\/images\/products\/.+\.svg$/);
    const { below, top, viewport } = await distance(last);
    expect(below, `${situation}: the last card starts far below the first screen`).toBeGreaterThan(320);
    await rendered(page);
    expect(
      asked.filter((p) => p === source),
      `${situation}: not asked for on arrival`,
    ).toHaveLength(0);
    await expect(last).toHaveAttribute("src", /^data:image\/svg\+xml,/);

    await scrollTo(page, top - viewport - 320);
    await rendered(page);
    expect(
      asked.filter((p) => p === source),
      `${situation}: 320 px away`,
    ).toHaveLength(0);

    await scrollTo(page, top - viewport - 200);
    await expect(last, `${situation}: 200 px away`).toHaveAttribute("src", source);
    await expect.poll(() => naturalWidth(last)).toBeGreaterThan(0);
    // The <noscript> copy never loads with JavaScript on: one request, the lazy image's own.
    expect(asked.filter((p) => p === source)).toHaveLength(1);

    // Scrolling through the rest shows every card's picture.
    for (let i = 3; i < 9; i++) {
      await images.nth(i).scrollIntoViewIfNeeded();
      await expect.poll(() => naturalWidth(images.nth(i)), { message: `card ${i + 1}` }).toBeGreaterThan(0);
    }
  });

  test("on a category page, the first row loads with the page, without scrolling @js-only", async ({
    page,
    situation,
  }) => {
    await page.goto(category);
    const images = page.locator(".product-card img");
    await expect(images).toHaveCount(3);
    for (let i = 0; i < 3; i++) {
      await expect(images.nth(i), situation).not.toHaveAttribute("data-lazy-src", /./);
      await expect.poll(() => naturalWidth(images.nth(i)), { message: `card ${i + 1}` }).toBeGreaterThan(0);
    }
  });

  test('on a product page, "Ook leuk" asks for no picture until the shopper comes near @js-only', async ({
    page,
    situation,
  }) => {
    const asked = requests(page);
    await page.goto(product);
    const related = page.locator("#related-products");
    const first = related.locator(".product-card img").first();
    const source = (await first.getAttribute("data-lazy-src")) ?? "";
    expect(source).toMatch(/^\/static\/images\/products\/.+\.svg$/);
    const later = await related
      .locator("img[data-carousel-src]")
      .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).dataset.carouselSrc ?? ""));
    expect(later.length).toBeGreaterThan(1);
    expect((await distance(related)).below, situation).toBeGreaterThan(250);
    await rendered(page);
    expect(
      asked.filter((p) => p === source || later.includes(p)),
      `${situation}: nothing of "Ook leuk" on arrival`,
    ).toEqual([]);
    await expect(related).toHaveAttribute("data-island-state", "waiting");

    await related.scrollIntoViewIfNeeded();
    await expect(first, situation).toHaveAttribute("src", source);
    await expect.poll(() => naturalWidth(first)).toBeGreaterThan(0);
    await expect(related).toHaveAttribute("data-island-state", "mounted");
  });

  test("show at once in a browser without JavaScript, from their <noscript> copies @no-js-only", async ({
    browser,
    baseURL,
    viewport,
    situation,
  }) => {
    // <noscript> copies render only where scripting is off, so this needs a browser without JavaScript.
    const context = await browser.newContext({ baseURL, viewport, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(home);
      const cards = page.locator(".product-card");
      await expect(cards).toHaveCount(9);
      await expect(page.locator(".product-card img[data-lazy-src]").first()).toBeHidden();
      for (let i = 0; i < 9; i++) {
        const img = cards.nth(i).locator("img:visible");
        await expect(img, `card ${i + 1}, ${situation}`).toHaveCount(1);
        await img.scrollIntoViewIfNeeded();
        await expect
          .poll(() => naturalWidth(img), { message: `card ${i + 1}, ${situation}` })
          .toBeGreaterThan(0);
        expect(await img.getAttribute("src")).toMatch(/^\/static\/images\/products\/.+\.svg$/);
      }
    } finally {
      await context.close();
    }
  });
});
