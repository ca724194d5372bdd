import type { Page } from "@playwright/test";

/**
 * Whether an enhanced form answered in place: mark the window, act, then ask. The mark
 * survives the islands' in-page updates and is gone after a page load.
 */
export const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stayedOnPage: true }));
export const stayedOnPage = (page: Page) =>
  page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage === true);
