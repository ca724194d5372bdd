import { join } from "node:path";
import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import { expect, test } from "./fixtures.ts";

/** The pattern library shows every page-level behaviour live; the webServer enables it. */
const library = { nl: "/patroonbibliotheek", de: "/musterbibliothek" } as const;

const scrollTo = (page: Page, y: number) => page.evaluate((top) => window.scrollTo(0, top), y);
const headerState = (page: Page) =>
  page.locator("[data-sticky-header]").evaluate((el) => (el as HTMLElement).dataset.stickyState ?? "none");

test.describe("The enhanced layer", () => {
  test("says on the html element whether it runs @once", async ({ page, scripts, situation }) => {
    await page.goto("/");
    await expect(page.locator("html"), situation).toHaveClass(scripts === "on" ? "js-enhanced" : "no-js");
    if (scripts === "on") {
      await expect(page.locator('[data-island="cart-count"]')).toHaveAttribute(
        "data-island-state",
        "mounted",
      );
    }
  });
});

test.describe("The header, while the shopper scrolls", () => {
  test("stays in place up to 120 px, then hides going down and comes back fixed going up", async ({
    page,
    scripts,
    situation,
  }) => {
    await page.goto(library.nl);
    const header = page.locator("[data-sticky-header]");
    await scrollTo(page, 100);
    await page.waitForTimeout(300);
    expect(await headerState(page), situation).toBe(scripts === "on" ? "static" : "none");

    await scrollTo(page, 600);
    if (scripts === "off") {
      await page.waitForTimeout(300);
      expect(await headerState(page), `${situation}: the header simply scrolls away`).toBe("none");
      await expect(header).not.toBeInViewport();
      return;
    }
    await expect.poll(() => headerState(page), situation).toBe("hidden");
    await expect(header).not.toBeInViewport();

    await scrollTo(page, 450);
    await expect.poll(() => headerState(page), situation).toBe("visible");
    await expect.poll(async () => (await header.boundingBox())?.y, situation).toBe(0);

    await scrollTo(page, 120);
    await expect.poll(() => headerState(page), situation).toBe("static");
  });
});

test.describe("An image that fails to load", () => {
  test("is marked so a placeholder shows, also when it arrives later", async ({
    page,
    scripts,
    situation,
  }) => {
    await page.goto(library.nl);
    const broken = page.locator('img[src="/static/images/missing-example.jpg"]');
    if (scripts === "off") {
      await expect(broken, `${situation}: the browser shows its alt text`).not.toHaveClass(/is-broken/);
      return;
    }
    await expect(broken, situation).toHaveClass(/is-broken/);
    await page.evaluate(() => {
      const img = document.createElement("img");
      img.src = "/static/images/also-missing.png";
      img.alt = "later";
      img.id = "late-image";
      document.querySelector("main")?.append(img);
    });
    await expect(page.locator("#late-image")).toHaveClass(/is-broken/);
  });
});

test.describe("A lazy image", () => {
  // Tags: playwright.config.ts runs @js-only tests with scripts on and @no-js-only tests with scripts off.
  test("loads only once it comes within 250 px of the viewport @js-only", async ({ page, situation }) => {
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(library.nl);
    const lazy = page.locator('[data-example="lazy-load:default"] img.lazy-image');
    const src = (await lazy.getAttribute("data-lazy-src")) ?? "";
    expect(src).not.toBe("");
    const { top, viewport } = await lazy.evaluate((img) => ({
      top: img.getBoundingClientRect().top + window.scrollY,
      viewport: window.innerHeight,
    }));

    await scrollTo(page, Math.max(0, top - viewport - 320));
    await page.waitForTimeout(400);
    expect(
      requested.filter((p) => p === src),
      `${situation}: 320 px away`,
    ).toHaveLength(0);
    await expect(lazy).not.toHaveAttribute("src", /^(?!data:)/);

    await scrollTo(page, top - viewport - 200);
    await expect(lazy, `${situation}: 200 px away`).toHaveAttribute("src", src);
    await expect.poll(() => requested.includes(src)).toBe(true);
  });

  test("shows at once when JavaScript is disabled @no-js-only", async ({ browser, baseURL }) => {
    // <noscript> renders only where scripting is off, so this needs a browser without JavaScript.
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(library.nl);
      const copy = page.locator('[data-example="lazy-load:default"] noscript img');
      await expect(page.locator('[data-example="lazy-load:default"] img.lazy-image')).toBeHidden();
      await copy.scrollIntoViewIfNeeded();
      await expect(copy).toBeVisible();
      await expect
        .poll(() => copy.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });
});

test.describe("Click analytics", () => {
  test("reports a click with sendBeacon, which the shop stores, and fills the dataLayer @once", async ({
    page,
    scripts,
    situation,
  }) => {
    const beacons: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/analytics/events") beacons.push(request.postData() ?? "");
    });
    await page.goto(library.nl);
    const button = page.locator(
      '[data-example="analytics:default"] button[data-analytics="product_card.click"]',
    );
    await button.click();
    if (scripts === "off") {
      await page.waitForTimeout(500);
      expect(beacons, `${situation}: nothing is sent`).toEqual([]);
      return;
    }
    expect(await page.evaluate(() => window.dataLayer)).toContainEqual({
      event: "product_card.click",
      productId: "canvas",
      list: "patterns",
      position: "1",
    });
    const marker = `${Date.now()}${Math.random()}`.replace(".", "");
    await button.evaluate((el, value) => el.setAttribute("data-analytics-list", value), marker);
    // The batch goes out after a short quiet time (or when the page is left).
    const response = page.waitForResponse((r) => new URL(r.url()).pathname === "/analytics/events");
    await button.click();
    expect((await response).status()).toBe(204);

    const dataDir = process.env.E2E_DATA_DIR ?? "";
    const db = new Database(join(dataDir, "shop.db"), { readonly: true });
    try {
      await expect
        .poll(() =>
          db
            .prepare("select event, route_id as route, locale from analytics_events where properties like ?")
            .all(`%${marker}%`),
        )
        .toEqual([{ event: "product_card.click", route: "patterns", locale: "nl" }]);
    } finally {
      db.close();
    }
  });
});

test.describe("Relative times", () => {
  for (const [lang, path, fiveAgo, sevenAgo, valid] of [
    ["nl", library.nl, "5 minuten geleden", "7 minuten geleden", "Nog 3 dagen geldig"],
    ["de", library.de, "vor 5 Minuten", "vor 7 Minuten", "Noch 3 Tage gültig"],
  ] as const) {
    test(`read naturally in ${lang === "nl" ? "Dutch" : "German"} and stay current @once`, async ({
      page,
      scripts,
      situation,
    }) => {
      await page.clock.install();
      await page.goto(path);
      const times = page.locator("#relative-time time");
      await expect(times.first(), situation).toHaveText(fiveAgo);
      await expect(times.filter({ hasText: valid }), situation).toHaveCount(1);
      await page.clock.fastForward("02:05");
      if (scripts === "on") await expect(times.first(), situation).toHaveText(sevenAgo);
      else await expect(times.first(), `${situation}: the server's text stays`).toHaveText(fiveAgo);
    });
  }
});
