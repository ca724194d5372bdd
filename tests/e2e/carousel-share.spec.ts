import { AxeBuilder } from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { createSpring } from "../../islands/carousel/spring.ts";
import { expect, test } from "./fixtures.ts";

/** The pattern library shows both carousels (photos with autoplay, product cards) and the share buttons. */
const library = { nl: "/patroonbibliotheek", de: "/musterbibliothek" } as const;
const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

const photos = (page: Page) => page.locator("#carousel-photos");
/** The photos again, without autoplay: nothing moves but what the test does. */
const still = (page: Page) => page.locator("#carousel-still");
/** The share hook's first example (the library page itself); the second shares a product. */
const shareButtons = (page: Page) => page.locator('[data-example="share:default"] [data-island="share"]');
const products = (page: Page) => page.locator("#carousel-products");
const currentDot = (carousel: Locator) => carousel.locator('.carousel__dot[aria-current="true"]');
const slideImage = (carousel: Locator, n: number) =>
  carousel
    .locator(".carousel__slide")
    .nth(n - 1)
    .locator("img")
    .first();

/** Scrolls the carousel near; the island mounts once it is within 250 px of the viewport. */
async function reach(carousel: Locator): Promise<void> {
  await carousel.scrollIntoViewIfNeeded();
  await expect(carousel).toHaveAttribute("data-island-state", "mounted");
}

/** Page time stands still until the test moves it on (runFor): autoplay and animations wait for it. */
async function freezeTime(page: Page): Promise<void> {
  const now = Date.now();
  await page.clock.install({ time: now });
  await page.clock.pauseAt(now + 1000);
}

/** Takes pointer and focus away from the carousels, so only the autoplay's own rules apply. */
async function leaveAlone(page: Page): Promise<void> {
  await page.mouse.move(1, 1);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** Which slides the frame shows at least half of, 1-based. */
function slidesInView(carousel: Locator): Promise<number[]> {
  return carousel.evaluate((root) => {
    const frame = (root.querySelector(".carousel__frame") as HTMLElement).getBoundingClientRect();
    return [...root.querySelectorAll(".carousel__slide")].flatMap((slide, i) => {
      const box = slide.getBoundingClientRect();
      const shown = Math.min(box.right, frame.right) - Math.max(box.left, frame.left);
      return shown >= box.width / 2 ? [i + 1] : [];
    });
  });
}

test.describe("A carousel, when JavaScript is unavailable", () => {
  test("is a list that scrolls sideways, snapping to each slide, with every slide and image there @no-js-only", async ({
    browser,
    baseURL,
    viewport,
  }) => {
    // <noscript> copies render only where scripting is off, so this needs a browser without JavaScript.
    const context = await browser.newContext({ baseURL, viewport, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(library.nl);
      const list = photos(page).locator("ul.carousel__slides");
      await expect(list).toHaveCSS("overflow-x", "auto");
      await expect(list).toHaveCSS("scroll-snap-type", "x mandatory");
      await expect(photos(page).locator(".carousel__controls")).toHaveCount(0);
      const slides = photos(page).locator(".carousel__slide");
      await expect(slides).toHaveCount(5);
      for (let i = 0; i < 5; i++) {
        const img = slides.nth(i).locator("img:visible");
        await img.scrollIntoViewIfNeeded();
        await expect(img, `slide ${i + 1}`).toBeInViewport();
        await expect
          .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
          .toBeGreaterThan(0);
      }
      const cards = products(page).locator(".carousel__slide .product-card");
      await expect(cards).toHaveCount(9);
      await cards.last().scrollIntoViewIfNeeded();
      await expect(cards.last()).toBeInViewport();
    } finally {
      await context.close();
    }
  });
});

test.describe("A carousel with JavaScript", () => {
  test("takes over the list's place without moving anything: same size, first slide where it was @js-only", async ({
    page,
    browser,
    baseURL,
    viewport,
  }) => {
    const measure = async (p: Page) => {
      const carousel = photos(p);
      await carousel.scrollIntoViewIfNeeded();
      return carousel.evaluate((root) => {
        const box = root.getBoundingClientRect();
        const img = (root.querySelector(".carousel__slide img") as HTMLElement).getBoundingClientRect();
        // What follows the example (its markup, then the next example) must not move either.
        const following = (root.nextElementSibling ?? root.parentElement?.nextElementSibling) as HTMLElement;
        const next = following.getBoundingClientRect();
        return {
          height: Math.round(box.height),
          image: [img.left - box.left, img.top - box.top, img.width, img.height].map(Math.round),
          nextTop: Math.round(next.top - box.top),
        };
      });
    };
    const context = await browser.newContext({ baseURL, viewport, javaScriptEnabled: false });
    try {
      const plain = await context.newPage();
      await plain.goto(library.nl);
      const before = await measure(plain);
      await page.goto(library.nl);
      await reach(photos(page));
      expect(await measure(page)).toEqual(before);
    } finally {
      await context.close();
    }
  });

  test("moves on by itself every 3 s, waits while pointed at or focused, and goes on after @js-only", async ({
    page,
    situation,
  }) => {
    await freezeTime(page);
    await page.goto(library.nl);
    const carousel = photos(page);
    await reach(carousel);
    await leaveAlone(page);
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", "Dia 1 van 5");
    await expect(carousel.locator(".carousel__frame"), "quiet while it turns").toHaveAttribute(
      "aria-live",
      "off",
    );

    await page.clock.runFor(2900);
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", "Dia 1 van 5");
    await page.clock.runFor(700);
    await expect(currentDot(carousel), situation).toHaveAttribute("aria-label", "Dia 2 van 5");
    expect(await slidesInView(carousel), `${situation}: the second slide is in view`).toEqual([2]);

    await carousel.locator(".carousel__frame").hover();
    await page.clock.runFor(9000);
    await expect(currentDot(carousel), "waits while the pointer is on it").toHaveAttribute(
      "aria-label",
      "Dia 2 van 5",
    );
    await leaveAlone(page);
    await page.clock.runFor(3600);
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", "Dia 3 van 5");

    await carousel.getByRole("button", { name: "Pauzeren" }).focus();
    await page.clock.runFor(9000);
    await expect(currentDot(carousel), "waits while focus is in it").toHaveAttribute(
      "aria-label",
      "Dia 3 van 5",
    );
    await page.locator("#share a").first().focus();
    await page.clock.runFor(3600);
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", "Dia 4 van 5");
    await page.clock.runFor(3600);
    await page.clock.runFor(3600);
    await expect(currentDot(carousel), "after the last slide it starts again").toHaveAttribute(
      "aria-label",
      "Dia 1 van 5",
    );
  });

  test("stops for good once the shopper clicks next @js-only", async ({ page }) => {
    await freezeTime(page);
    await page.goto(library.nl);
    const carousel = photos(page);
    await reach(carousel);
    await carousel.getByRole("button", { name: "Volgende" }).click();
    await page.clock.runFor(700);
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", "Dia 2 van 5");
    await leaveAlone(page);
    await page.clock.runFor(15_000);
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", "Dia 2 van 5");
    await expect(carousel.getByRole("button", { name: "Afspelen" })).toBeVisible();
    await expect(carousel.locator(".carousel__frame")).toHaveAttribute("aria-live", "polite");
  });

  test("has a visible pause button that pauses and plays again @js-only", async ({ page }) => {
    await freezeTime(page);
    await page.goto(library.nl);
    const carousel = photos(page);
    await reach(carousel);
    const pause = carousel.getByRole("button", { name: "Pauzeren" });
    await expect(pause).toBeVisible();
    await pause.click();
    await leaveAlone(page);
    await page.clock.runFor(15_000);
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", "Dia 1 van 5");

    const play = carousel.getByRole("button", { name: "Afspelen" });
    await play.click();
    await expect(carousel.getByRole("button", { name: "Pauzeren" })).toBeVisible();
    // Asked for explicitly: it plays even with the pointer and focus still on the button.
    await page.clock.runFor(3600);
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", "Dia 2 van 5");
  });

  test("moves with the arrow keys and by dragging, but not for a 3 px wobble @js-only", async ({ page }) => {
    await page.goto(library.nl);
    await reach(products(page));
    // Where the first card's link is while the slider rests at the start.
    const linkBox = await products(page).locator(".carousel__slide").first().getByRole("link").boundingBox();
    const frameBox = await products(page).locator(".carousel__frame").boundingBox();
    if (!linkBox || !frameBox) throw new Error("the carousel has no box");
    const x = linkBox.x + linkBox.width / 2;
    const y = linkBox.y + linkBox.height / 2;

    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x - 3, y, { steps: 3 });
    await page.mouse.up();
    await expect(page, "a 3 px wobble is a click: the link opens").not.toHaveURL(/patroonbibliotheek/);
    await page.goBack();
    const carousel = products(page);
    await reach(carousel);

    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x - Math.min(240, frameBox.width / 2), y, { steps: 12 });
    await page.mouse.up();
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", /^Dia 2 van \d$/);
    await expect(page, "the click that ends a drag opens nothing").toHaveURL(/patroonbibliotheek/);

    await carousel.getByRole("button", { name: "Volgende" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", /^Dia 3 van \d$/);
    await page.keyboard.press("ArrowLeft");
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", /^Dia 2 van \d$/);
  });

  test("loads a slide image only when it comes within 150 px of view @js-only", async ({ page }) => {
    await freezeTime(page);
    await page.goto(library.nl);
    const carousel = photos(page);
    // Not near yet: the island has not even been downloaded, and slide 2 shows only its placeholder.
    await expect(slideImage(carousel, 2)).not.toHaveAttribute("src", /^(?!data:)/);
    const second = (await slideImage(carousel, 2).getAttribute("data-carousel-src")) ?? "";
    const third = (await slideImage(carousel, 3).getAttribute("data-carousel-src")) ?? "";
    expect([second, third]).toEqual([expect.stringMatching(/\.svg$/), expect.stringMatching(/\.svg$/)]);
    await reach(carousel);
    await page.clock.runFor(100);
    // Slide 2 starts one gap (16 px) past the edge, slide 3 a whole slide further.
    await expect(slideImage(carousel, 2)).toHaveAttribute("src", second);
    await expect
      .poll(() => slideImage(carousel, 2).evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    for (const n of [3, 4, 5]) {
      await expect(slideImage(carousel, n), `slide ${n}`).not.toHaveAttribute("src", /^(?!data:)/);
      await expect(slideImage(carousel, n)).toHaveAttribute("data-carousel-src", /\.svg$/);
    }
    await carousel.getByRole("button", { name: "Volgende" }).click();
    await page.clock.runFor(700);
    await expect(slideImage(carousel, 3)).toHaveAttribute("src", third);
    await expect(slideImage(carousel, 4)).not.toHaveAttribute("src", /^(?!data:)/);
  });

  test("glides to the next slide by the spec's spring: onwards every frame, never past it @js-only", async ({
    page,
    situation,
  }) => {
    await freezeTime(page);
    await page.goto(library.nl);
    const carousel = still(page);
    await reach(carousel);
    // keen places the slides in the next animation frame.
    await page.clock.runFor(20);
    /** How far the second slide still is from the frame's left edge, in px. */
    const gap = () =>
      carousel.evaluate((root) => {
        const frame = (root.querySelector(".carousel__frame") as HTMLElement).getBoundingClientRect();
        const second = (root.querySelectorAll(".carousel__slide")[1] as HTMLElement).getBoundingClientRect();
        return second.left - frame.left;
      });
    const distance = await gap();
    expect(distance, situation).toBeGreaterThan(200);
    const clickedAt = await page.evaluate(() => performance.now());
    await carousel.getByRole("button", { name: "Volgende" }).click();

    // The page's clock stands still between steps: each step runs one animation frame,
    // whose time the page notes, and the slide must be where the formula puts it then
    // (spring.ts, which tests/unit/islands/spring.test.ts holds to the formula).
    const noteNextFrame = () =>
      page.evaluate(() => {
        requestAnimationFrame((time) => {
          (window as unknown as { frameTime: number }).frameTime = time;
        });
      });
    const path: number[] = [];
    await noteNextFrame();
    for (let frame = 0; frame < 20; frame++) {
      await page.clock.runFor(16);
      const frameTime = await page.evaluate(() => (window as unknown as { frameTime: number }).frameTime);
      const moved = distance - (await gap());
      await noteNextFrame();
      const spring = createSpring({ friction: 0.28, attraction: 0.025 });
      spring.retarget(distance);
      spring.advance(frameTime - clickedAt);
      expect(moved, `${situation}: at ${Math.round(frameTime - clickedAt)} ms`).toBeCloseTo(
        spring.position,
        0,
      );
      path.push(moved);
    }
    expect(
      path.every((x, i) => i === 0 || x >= (path[i - 1] as number)),
      "onwards every frame",
    ).toBe(true);
    expect(Math.max(...path), "not there yet after a third of a second").toBeLessThan(distance);
    await page.clock.runFor(2000);
    // keen keeps its track to a millionth of the frame's width.
    expect(await gap(), "resting on the second slide").toBeCloseTo(0, 2);
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", "Dia 2 van 5");
  });

  test("jumps instead of gliding for a shopper who prefers reduced motion @js-only", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await freezeTime(page);
    await page.goto(library.nl);
    const carousel = still(page);
    await reach(carousel);
    await carousel.getByRole("button", { name: "Dia 3 van 5" }).click();
    await page.clock.runFor(20);
    // The page's clock now stands still, so no frame of a glide can run from here on. The
    // layout is read until it agrees: about once in a hundred runs Chromium answered the
    // first read with the slides where they were, while their inline transforms already
    // held the new place (a stale read, not a frame of movement: the next read, with no
    // time passed, had them in place).
    await expect.poll(() => slidesInView(carousel)).toEqual([3]);
    const third = () =>
      carousel.evaluate((root) => {
        const frame = (root.querySelector(".carousel__frame") as HTMLElement).getBoundingClientRect();
        return (
          (root.querySelectorAll(".carousel__slide")[2] as HTMLElement).getBoundingClientRect().left -
          frame.left
        );
      });
    expect(await third(), "the very next frame shows it in place").toBeCloseTo(0, 2);
  });

  test("shows the slide the shopper left after a link and Back, and after a reload @js-only", async ({
    page,
    situation,
  }) => {
    const book = "/assortiment/fotoboeken/exclusief-fotoboek";
    const images = (p: Page) => p.locator("#product-images");
    // Time stands still unless the test moves it: a slide that glided back into place
    // would still be on its way.
    await freezeTime(page);
    await page.goto(book);
    await reach(images(page));
    const next = images(page).getByRole("button", { name: "Volgende" });
    await next.click();
    await next.click();
    await page.clock.runFor(3000);
    await expect(currentDot(images(page))).toHaveAttribute("aria-label", /^Dia 3 van \d$/);
    // On a wide screen the last position shows the last slides together.
    const shown = await slidesInView(images(page));
    expect(shown[0]).toBe(3);

    await page.getByRole("navigation", { name: "Kruimelpad" }).getByRole("link").last().click();
    await expect(page).not.toHaveURL(new RegExp(`${book}$`));
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${book}$`));
    await reach(images(page));
    await expect(currentDot(images(page)), situation).toHaveAttribute("aria-label", /^Dia 3 van \d$/);
    // One frame for keen to draw: a glide would have barely started.
    await page.clock.runFor(20);
    expect(await slidesInView(images(page)), `${situation}: in place at once`).toEqual(shown);
    expect(
      await page.evaluate(() => history.state?.fotohoek?.carousel),
      "kept in the history entry, for this carousel only (the related products turn by themselves)",
    ).toEqual({ "product-images": 2 });

    await page.reload();
    await reach(images(page));
    await expect(currentDot(images(page)), situation).toHaveAttribute("aria-label", /^Dia 3 van \d$/);
    await page.clock.runFor(20);
    expect(await slidesInView(images(page))).toEqual(shown);
  });

  test("hides slides out of view from keyboard and screen readers, and passes axe after use @js-only", async ({
    page,
    situation,
  }) => {
    await page.goto(library.nl);
    const carousel = photos(page);
    await reach(carousel);
    await expect(carousel).toHaveAttribute("aria-roledescription", "carrousel");
    await expect(carousel.locator(".carousel__slide").first()).toHaveAttribute("aria-label", "1 van 5");
    await expect(carousel.locator(".carousel__slide[inert]")).toHaveCount(4);
    await carousel.getByRole("button", { name: "Dia 3 van 5" }).click();
    await expect(currentDot(carousel)).toHaveAttribute("aria-label", "Dia 3 van 5");
    await expect(carousel.locator(".carousel__slide").nth(2)).not.toHaveAttribute("inert", "");
    await reach(products(page));
    const results = await new AxeBuilder({ page })
      .include("#carousel")
      .include("#share")
      .withTags(wcagTags)
      .analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      situation,
    ).toEqual([]);
  });
});

test.describe("The share buttons", () => {
  for (const [lang, path, labels] of [
    ["nl", library.nl, ["Deel via Facebook", "Deel via Twitter", "Deel via WhatsApp", "Deel via e-mail"]],
    [
      "de",
      library.de,
      ["Teilen über Facebook", "Teilen über Twitter", "Teilen über WhatsApp", "Teilen über E-Mail"],
    ],
  ] as const) {
    test(`are plain links to the networks, named in ${lang === "nl" ? "Dutch" : "German"} @once`, async ({
      page,
      baseURL,
      situation,
    }) => {
      await page.goto(path);
      const share = shareButtons(page);
      const address = encodeURIComponent(`${baseURL}${path}`);
      const title = encodeURIComponent(lang === "nl" ? "Patroonbibliotheek" : "Musterbibliothek");
      const links = share.getByRole("link");
      await expect(links, situation).toHaveCount(4);
      const expected = [
        `https://www.facebook.com/sharer/sharer.php?u=${address}`,
        `https://twitter.com/intent/tweet?url=${address}&text=${title}`,
        `https://wa.me/?text=${title}%20${address}`,
        `mailto:?subject=${title}&body=${title}%0D%0A%0D%0A${address}`,
      ];
      for (const [i, label] of labels.entries()) {
        const link = links.nth(i);
        await expect(link).toHaveAccessibleName(new RegExp(`^${label}`));
        await expect(link).toHaveAttribute("href", expected[i] ?? "");
      }
      await expect(links.first()).toHaveAttribute("target", "_blank");
      await expect(links.last()).not.toHaveAttribute("target", /./);
    });
  }

  test("pass axe, with and without JavaScript @axe", async ({ page, situation }) => {
    await page.goto(library.de);
    const results = await new AxeBuilder({ page })
      .include("#share")
      .include("#carousel")
      .withTags(wcagTags)
      .analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      situation,
    ).toEqual([]);
  });

  test("offer no generic share button where the browser cannot share @js-only", async ({ page }) => {
    await page.addInitScript(() => {
      // Some Chromium builds have the Web Share API; this test is about one that does not.
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    await page.goto(library.nl);
    await expect(shareButtons(page)).toHaveAttribute("data-island-state", "mounted");
    await expect(page.getByRole("button", { name: "Delen…" })).toBeHidden();
  });

  test("add 'Delen…' where the browser can share, which opens its share sheet and is counted @js-only", async ({
    page,
    baseURL,
  }) => {
    await page.addInitScript(() => {
      const shares: ShareData[] = [];
      Object.assign(window, { shares });
      Object.defineProperty(Navigator.prototype, "share", {
        configurable: true,
        value: async (data: ShareData) => {
          shares.push(data);
        },
      });
    });
    await page.goto(library.nl);
    const button = shareButtons(page).getByRole("button", { name: "Delen…" });
    await expect(button).toBeVisible();
    await button.click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shares: ShareData[] }).shares))
      .toEqual([{ url: `${baseURL}${library.nl}`, title: "Patroonbibliotheek" }]);
    expect(await page.evaluate(() => window.dataLayer)).toContainEqual({ event: "share", network: "native" });
  });

  test("count a click on a network link @js-only", async ({ page, context }) => {
    // The network's page opens in a new tab; keep the test off the internet.
    await context.route(/facebook\.com/, (route) => route.fulfill({ status: 204, body: "" }));
    await page.goto(library.nl);
    await shareButtons(page)
      .getByRole("link", { name: /Facebook/ })
      .click();
    await expect
      .poll(() => page.evaluate(() => window.dataLayer))
      .toContainEqual({ event: "share", network: "facebook" });
  });
});
