import { test as base, expect } from "@playwright/test";

/** Project options, set per project in playwright.config.ts. */
export interface ShopOptions {
  /** "off": the page's own scripts never load, as for a shopper whose JavaScript fails or is disabled. */
  scripts: "on" | "off";
}

interface ShopFixtures {
  /** The shopper's situation in words, for assertion messages: "when JavaScript is unavailable, on a small screen (375 px)". */
  situation: string;
  /** URLs of scripts the "JavaScript off" variant stopped; empty with scripts on. */
  blockedScripts: string[];
}

function screenSize(width: number): string {
  if (width < 480) return "a small screen";
  if (width < 1024) return "a medium-sized screen";
  return "a large screen";
}

const isScript = (url: URL): boolean => /\.m?js$/i.test(url.pathname);

export const test = base.extend<ShopOptions & ShopFixtures>({
  scripts: ["on", { option: true }],

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  blockedScripts: async ({}, use) => {
    await use([]);
  },

  situation: async ({ scripts, viewport }, use) => {
    const js = scripts === "off" ? "when JavaScript is unavailable" : "with JavaScript";
    await use(viewport ? `${js}, on ${screenSize(viewport.width)} (${viewport.width} px)` : js);
  },

  // An explicit browser.newContext() (which @axe-core/playwright needs). The JavaScript-off
  // variant blocks script requests instead of using javaScriptEnabled:false, in which axe hangs.
  context: async ({ browser, baseURL, viewport, scripts, blockedScripts }, use) => {
    const context = await browser.newContext({ baseURL, viewport });
    if (scripts === "off") {
      await context.route(isScript, async (route) => {
        blockedScripts.push(route.request().url());
        await route.abort("blockedbyclient");
      });
    }
    await use(context);
    await context.close();
  },

  // With JavaScript, a navigation counts as done once the page's behaviours have started, so a
  // journey tests the enhanced path rather than racing the script download.
  page: async ({ page, scripts }, use) => {
    if (scripts === "on") {
      const goto = page.goto.bind(page);
      page.goto = async (url, options) => {
        const response = await goto(url, options);
        await page.locator('html[data-enhanced="ready"]').waitFor({ state: "attached" });
        return response;
      };
    }
    await use(page);
  },
});

export { expect };
