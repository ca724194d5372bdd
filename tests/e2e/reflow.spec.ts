import { expect, test } from "./fixtures.ts";

/**
 * WCAG 1.4.10 (reflow): content fits a screen 320 px wide (a 1280 px window zoomed to 400%)
 * without scrolling sideways. The other journeys read each page at 375 px and up; this one
 * reads every page the sitemap lists, in both languages, at 320 px. An editor's long word in
 * a heading ("Toegankelijkheidsverklaring") or a header row without room shows up here.
 * The layout is the style sheets', the same with and without JavaScript: once, with it.
 */
test.describe("Every public page on a 320 px screen @js-only @once", () => {
  test("fits without scrolling sideways, the header's logo clear of its buttons", async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const sitemap = await (await request.get("/sitemap.xml")).text();
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc = ""]) => new URL(loc).pathname);
    expect(paths.length).toBeGreaterThan(50);
    await page.setViewportSize({ width: 320, height: 640 });

    const problems: string[] = [];
    for (const path of paths) {
      await page.goto(path);
      const { scrollWidth, logoRight, buttonsLeft } = await page.evaluate(() => ({
        scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
        // The logo's own content, its name included: it overflows its box when squeezed.
        logoRight: (() => {
          const logo = document.querySelector(".site-header__logo");
          if (!logo) return 0;
          const range = document.createRange();
          range.selectNodeContents(logo);
          return Math.max(...[...range.getClientRects()].map((rect) => rect.right));
        })(),
        buttonsLeft: document.querySelector(".site-header__tools")?.getBoundingClientRect().left ?? 0,
      }));
      if (scrollWidth > 320) problems.push(`${path}: ${scrollWidth} px wide`);
      if (logoRight > buttonsLeft)
        problems.push(`${path}: the logo reaches ${logoRight} px, the buttons start at ${buttonsLeft} px`);
    }
    expect(problems).toEqual([]);
  });
});
