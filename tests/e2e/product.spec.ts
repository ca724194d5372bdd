import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { openSiteMenu } from "./site-menu.ts";

const book = "/assortiment/fotoboeken/exclusief-fotoboek";
const front = "photobook-exclusive-landscape";
const framePattern = /\/pages\/productpage\/360\/([\w-]+)\/(\d+)\/(\d+)\.jpg\?v=\w+/;

const price = (page: Page) => page.locator("[data-product-price]");
const viewer = (page: Page) => page.locator('[data-island="viewer360"]');
/** The frame number (1..36) the viewer shows. */
const shownFrame = async (page: Page) =>
  Number(await viewer(page).locator("[data-frame]").first().getAttribute("data-frame"));

test.describe("Choosing a product's options, with JavaScript @js-only", () => {
  test("updates price, sizes and address in place, without a reload", async ({ page, situation }) => {
    await page.goto(book);
    await expect(page.locator('[data-island="product-options"]')).toHaveAttribute(
      "data-island-state",
      "mounted",
    );
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });

    await page.getByLabel("Oriëntatie").selectOption({ label: "Staand" });
    await expect(page, situation).toHaveURL(/\?orientatie=staand&formaat=21x30$/);
    await expect(page.getByLabel("Formaat").locator("option")).toHaveText(["21x30 cm"]);
    await expect(price(page)).toHaveText(/49,99/);

    await page.getByLabel("Oriëntatie").selectOption({ label: "Liggend" });
    await page.getByLabel("Formaat").selectOption("40x30");
    await expect(page).toHaveURL(/\?orientatie=liggend&formaat=40x30$/);
    await expect(price(page)).toHaveText(/74,99/);
    // The form's hidden fields follow, so the cart gets what the page shows.
    await expect(page.locator('input[name="size"]')).toHaveValue("40x30");
    // The language switcher keeps the choice.
    await expect(page.locator('.language-switcher a[hreflang="de"]')).toHaveAttribute(
      "href",
      /ausrichtung=querformat&format=40x30/,
    );
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), situation).toBe(
      true,
    );
    // The "show" button is for shoppers without JavaScript.
    await expect(page.getByRole("button", { name: "Toon deze uitvoering" })).toBeHidden();
  });

  test("adds to the cart in place and updates the header's count", async ({ page, situation }) => {
    await page.goto(`${book}?orientatie=staand&formaat=21x30`);
    await expect(page.locator('[data-island="product-options"]')).toHaveAttribute(
      "data-island-state",
      "mounted",
    );
    await page.getByLabel("Aantal").fill("2");
    await page.getByRole("button", { name: "In winkelwagen" }).click();
    await expect(page.getByRole("status").filter({ hasText: "is toegevoegd" }), situation).toContainText(
      "Exclusief fotoboek (Staand, 21x30 cm) is toegevoegd aan je winkelwagen.",
    );
    await expect(page.locator(".site-header .cart-link__count")).toHaveText("2 artikelen");
    await expect(page).toHaveURL(new RegExp(`${book}\\?`));
  });
});

test.describe("Choosing a product's options when JavaScript is unavailable @no-js-only", () => {
  test("the show button opens the chosen combination, the nearest one if the old size does not fit", async ({
    page,
    situation,
  }) => {
    await page.goto(book);
    await page.getByLabel("Oriëntatie").selectOption({ label: "Staand" });
    await page.getByRole("button", { name: "Toon deze uitvoering" }).click();
    await expect(page, situation).toHaveURL(/\?orientatie=staand&formaat=21x30$/);
    await expect(page.getByLabel("Formaat")).toHaveValue("21x30");
    await expect(price(page)).toHaveText(/49,99/);

    await page.getByLabel("Oriëntatie").selectOption({ label: "Vierkant" });
    await page.getByRole("button", { name: "Toon deze uitvoering" }).click();
    await expect(page).toHaveURL(/\?orientatie=vierkant&formaat=30x30$/);
    await expect(price(page)).toHaveText(/59,99/);
  });

  test("the add-to-cart form posts and shows the cart", async ({ page, situation }) => {
    await page.goto(`${book}?orientatie=liggend&formaat=40x30`);
    await page.getByLabel("Aantal").fill("3");
    await page.getByRole("button", { name: "In winkelwagen" }).click();
    await expect(page, situation).toHaveURL(/\/winkelwagen\/inhoud$/);
    await expect(page.locator("main")).toContainText("Exclusief fotoboek");
    await expect(page.locator(".site-header .cart-link__count")).toHaveText("3 artikelen");
  });

  test("the viewer's first frame shows as a plain image", async ({ page, situation }) => {
    await page.goto(book);
    const image = viewer(page).locator("img").first();
    await expect(image, situation).toBeVisible();
    expect(await image.getAttribute("src")).toMatch(framePattern);
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });
});

test.describe("The 360-degree viewer @js-only", () => {
  test("loads the frames that suit the screen", async ({ page, viewport, situation }) => {
    const requested: Array<{ size: number; n: number }> = [];
    page.on("request", (request) => {
      const match = framePattern.exec(request.url());
      if (match && match[1] === front) requested.push({ size: Number(match[2]), n: Number(match[3]) });
    });
    await page.goto(book);
    await expect(viewer(page)).toHaveAttribute("data-island-state", "mounted");
    const width = viewport?.width ?? 1280;
    const expected =
      width > 725
        ? { size: 720, frames: Array.from({ length: 36 }, (_, i) => i + 1) }
        : { size: width <= 480 ? 320 : 720, frames: Array.from({ length: 18 }, (_, i) => 2 * i + 1) };
    await expect
      .poll(() => new Set(requested.map((r) => r.n)).size, { message: situation })
      .toBe(expected.frames.length);
    const frames = [...new Set(requested.map((r) => r.n))].sort((a, b) => a - b);
    expect(frames, situation).toEqual(expected.frames);
    expect(new Set(requested.map((r) => r.size)), situation).toEqual(new Set([expected.size]));
  });

  test("turns by dragging and stops at the first and last frame", async ({ page, viewport, situation }) => {
    // Screens up to 725 px load every second frame (1, 3, … 35), so their last frame is 35.
    const last = (viewport?.width ?? 1280) > 725 ? 36 : 35;
    await page.goto(book);
    await expect(viewer(page)).toHaveAttribute("data-island-state", "mounted");
    const box = await viewer(page).boundingBox();
    if (!box) throw new Error("the viewer has no box");
    const y = box.y + box.height / 2;
    const drag = async (from: number, to: number) => {
      await page.mouse.move(from, y);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) await page.mouse.move(from + ((to - from) * i) / 10, y);
      await page.mouse.up();
    };
    const settled = async () => {
      let previous = -1;
      await expect
        .poll(async () => {
          const now = await shownFrame(page);
          const same = now === previous;
          previous = now;
          return same;
        })
        .toBe(true);
      return previous;
    };

    // Three widths to one side is more than the whole range: it must stop at an end, not wrap.
    for (let i = 0; i < 3; i++) await drag(box.x + box.width * 0.9, box.x + box.width * 0.1);
    const oneEnd = await settled();
    expect([1, last], situation).toContain(oneEnd);
    await drag(box.x + box.width * 0.9, box.x + box.width * 0.1);
    expect(await settled(), "dragging further does not wrap around").toBe(oneEnd);

    for (let i = 0; i < 4; i++) await drag(box.x + box.width * 0.1, box.x + box.width * 0.9);
    const otherEnd = await settled();
    expect(otherEnd, situation).toBe(oneEnd === 1 ? last : 1);
  });

  test("turns with the arrow keys and with visible buttons", async ({ page, viewport, situation }) => {
    const last = (viewport?.width ?? 1280) > 725 ? 36 : 35;
    await page.goto(book);
    await expect(viewer(page)).toHaveAttribute("data-island-state", "mounted");
    expect(await shownFrame(page)).toBe(1);
    const turnable = viewer(page).locator('[tabindex="0"], [role="slider"]').first();
    await turnable.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => shownFrame(page), { message: situation }).toBeGreaterThan(1);
    await page.keyboard.press("End");
    await expect.poll(() => shownFrame(page)).toBe(last);
    await page.keyboard.press("Home");
    await expect.poll(() => shownFrame(page)).toBe(1);

    await viewer(page).getByRole("button", { name: "Naar rechts draaien" }).click();
    await expect.poll(() => shownFrame(page), { message: situation }).toBeGreaterThan(1);
  });

  test("follows the chosen orientation", async ({ page, situation }) => {
    await page.goto(book);
    await expect(viewer(page)).toHaveAttribute("data-island-state", "mounted");
    await page.getByLabel("Oriëntatie").selectOption({ label: "Staand" });
    await expect(viewer(page).locator("img").first(), situation).toHaveAttribute(
      "src",
      /photobook-exclusive-portrait\/\d+\/1\.jpg/,
    );
  });
});

test.describe("Sharing a product", () => {
  test("offers plain links to Facebook, Twitter, WhatsApp and email", async ({ page, situation }) => {
    await page.goto(book);
    for (const [label, href] of [
      ["Deel via Facebook", /^https:\/\/www\.facebook\.com\/sharer\/sharer\.php\?u=/],
      ["Deel via Twitter", /^https:\/\/twitter\.com\/intent\/tweet\?/],
      ["Deel via WhatsApp", /^https:\/\/wa\.me\/\?text=/],
      ["Deel via e-mail", /^mailto:\?/],
    ] as const) {
      await expect(page.getByRole("link", { name: label }), situation).toHaveAttribute("href", href);
    }
  });

  test("offers the browser's own share only where the browser has one @js-only", async ({
    page,
    situation,
  }) => {
    await page.addInitScript(() => {
      // Some Chromium builds have the Web Share API; this test is about one that does not.
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    await page.goto(book);
    await expect(page.locator('[data-island="share"]')).toHaveAttribute("data-island-state", "mounted");
    await expect(page.getByRole("button", { name: /Delen/ }), situation).toBeHidden();
  });

  test("where the browser can share, shares the option the shopper chose, and counts it @js-only", async ({
    page,
    baseURL,
    situation,
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
    await page.goto(book);
    await expect(page.locator('[data-island="product-options"]')).toHaveAttribute(
      "data-island-state",
      "mounted",
    );
    await page.getByLabel("Formaat").selectOption("40x30");
    await expect(page).toHaveURL(/\?orientatie=liggend&formaat=40x30$/);
    const chosen = `${baseURL}${book}?orientatie=liggend&formaat=40x30`;
    // The plain links follow the choice too.
    await expect(page.getByRole("link", { name: "Deel via Facebook" }), situation).toHaveAttribute(
      "href",
      `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(chosen)}`,
    );

    const button = page.getByRole("button", { name: "Delen…" });
    await expect(button, situation).toBeVisible();
    await button.click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shares: ShareData[] }).shares), {
        message: situation,
      })
      .toEqual([
        {
          url: chosen,
          title: "Exclusief fotoboek",
          text: "Een luxe fotoboek met een stevige harde kaft en dik, mat fotopapier dat helemaal vlak openvalt.",
        },
      ]);
    await expect
      .poll(() => page.evaluate(() => window.dataLayer))
      .toContainEqual({ event: "share", network: "native" });
  });
});

test.describe("Related products", () => {
  const related = (page: Page) => page.locator("#related-products");
  const cardImage = (page: Page, n: number) =>
    related(page).locator(".carousel__slide").nth(n).locator("img.product-card__image").first();

  test("load a card's picture only when the carousel brings it near @js-only", async ({
    page,
    situation,
  }) => {
    await page.goto(book);
    await related(page).scrollIntoViewIfNeeded();
    await expect(related(page)).toHaveAttribute("data-island-state", "mounted");
    await expect(cardImage(page, 0), situation).toHaveAttribute("src", /\.svg$/);
    const last = cardImage(page, 7);
    // Until then it shows the transparent placeholder, not its picture.
    await expect(last, situation).not.toHaveAttribute("src", /\.svg$/);
    await expect(last).toHaveAttribute("data-carousel-src", /\.svg$/);

    const next = related(page).getByRole("button", { name: "Volgende" });
    // The dot marked current is where the carousel has come to rest.
    const position = () =>
      related(page)
        .locator(".carousel__dot")
        .evaluateAll((dots) => dots.findIndex((dot) => dot.hasAttribute("aria-current")));
    // One step at a time, each once the previous glide has come to rest, until the end.
    await next.focus();
    while ((await next.getAttribute("aria-disabled")) !== "true") {
      const from = await position();
      await page.keyboard.press("ArrowRight");
      await expect.poll(position, situation).toBeGreaterThan(from);
    }
    await expect(last, situation).toHaveAttribute("src", /\.svg$/);
    await expect
      .poll(() => last.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  });

  test("show every card's picture in a browser without JavaScript @no-js-only", async ({
    browser,
    baseURL,
    viewport,
    situation,
  }) => {
    // <noscript> copies render only where scripting is off, so this needs a browser without JavaScript.
    const context = await browser.newContext({ baseURL, viewport, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(book);
      const cards = related(page).locator(".product-card");
      await expect(cards).toHaveCount(8);
      for (let i = 0; i < 8; i++) {
        const img = cards.nth(i).locator("img:visible");
        await expect(img, `card ${i + 1}, ${situation}`).toHaveCount(1);
        await img.scrollIntoViewIfNeeded();
        await expect
          .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth), { message: situation })
          .toBeGreaterThan(0);
      }
    } finally {
      await context.close();
    }
  });
});

test.describe("Category pages", () => {
  test("lead from the main navigation to a product page", async ({ page, situation }) => {
    await page.goto("/");
    await openSiteMenu(page);
    await page
      .getByRole("navigation", { name: "Hoofdmenu" })
      .getByRole("link", { name: "Fotoboeken" })
      .click();
    await expect(page, situation).toHaveURL(/\/assortiment\/fotoboeken$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Fotoboeken");
    await page.getByRole("link", { name: "Exclusief fotoboek" }).click();
    await expect(page).toHaveURL(new RegExp(`${book}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Exclusief fotoboek");
  });
});
