import type { Page } from "@playwright/test";

/**
 * Opens the header's menu where it is one (725 px and below), so its navigation and
 * languages can be used; above that they are in the header's bar and nothing is pressed.
 */
export async function openSiteMenu(page: Page): Promise<void> {
  const button = page.locator("summary.site-menu__button");
  if (!(await button.isVisible())) return;
  if (await page.locator("details.site-menu").evaluate((menu) => (menu as HTMLDetailsElement).open)) return;
  await button.click();
}
