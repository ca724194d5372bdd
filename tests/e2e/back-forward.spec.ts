import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

const book = "/assortiment/fotoboeken/exclusief-fotoboek";
const faqOverview = "/klantenservice/faq/overzicht";
const subscription = "/abonnement";

const widthOf = (testInfo: TestInfo) => testInfo.project.use.viewport?.width ?? 1280;

/** Back, and wait until the page's islands run again (a normal Back loads the page anew). */
async function back(page: Page): Promise<void> {
  await page.goBack();
  await page.locator('html[data-enhanced="ready"]').waitFor({ state: "attached" });
}

/** Leaves the page by the footer's link to customer service, as a shopper wandering off would. */
async function wanderOff(page: Page): Promise<void> {
  await page.locator("footer").getByRole("link", { name: "Klantenservice", exact: true }).click();
  await expect(page.locator("h1")).toHaveText("Klantenservice");
}

test.describe("Back and Forward bring back what the shopper chose @js-only", () => {
  test("the product's orientation and size, with its price and picture, from the first paint on", async ({
    page,
    situation,
  }) => {
    // What the page shows when its markup is parsed and the browser has restored its fields,
    // before any island runs: the selects and the price must already agree.
    await page.addInitScript(() => {
      document.addEventListener("DOMContentLoaded", () => {
        const value = (selector: string) => document.querySelector<HTMLSelectElement>(selector)?.value;
        Object.assign(window, {
          firstPaint: {
            orientation: value("[data-product-orientation]"),
            size: value("[data-product-size]"),
            price: document.querySelector("[data-product-price]")?.textContent,
          },
        });
      });
    });
    await page.goto(book);
    // A square book comes in one size: the size, the price and the picture all change.
    await page.getByLabel("Oriëntatie").selectOption({ label: "Vierkant" });
    await expect(page).toHaveURL(/\?orientatie=vierkant&formaat=30x30$/);
    const price = await page.locator("[data-product-price]").textContent();

    await wanderOff(page);
    await back(page);
    await expect(page, situation).toHaveURL(/\?orientatie=vierkant&formaat=30x30$/);
    await expect(page.getByLabel("Oriëntatie"), situation).toHaveValue("vierkant");
    await expect(page.getByLabel("Formaat")).toHaveValue("30x30");
    await expect(page.locator("[data-product-price]")).toHaveText(price ?? "");
    await expect(page.locator('input[name="size"]')).toHaveValue("30x30");
    await expect(page.locator('[data-island="viewer360"] img').first()).toHaveAttribute(
      "src",
      /photobook-exclusive-square\/\d+\/1\.jpg/,
    );
    expect(
      await page.evaluate(() => (window as unknown as { firstPaint: unknown }).firstPaint),
      situation,
    ).toEqual({
      orientation: "vierkant",
      size: "30x30",
      price,
    });

    // And Forward, to where the shopper had gone.
    await page.goForward();
    await expect(page.locator("h1")).toHaveText("Klantenservice");
  });

  test("the FAQ topic the shopper opened", async ({ page, situation }) => {
    await page.goto(faqOverview);
    const topic = page.locator("details.faq-nav__item").filter({ hasText: "Betalen" });
    await topic.locator("summary").click();
    await expect(topic).toHaveAttribute("open", "");
    await topic.getByRole("link", { name: "Krijg ik een factuur?" }).click();
    await expect(page.locator("h1")).toHaveText("Krijg ik een factuur?");

    await back(page);
    await expect(page.locator("h1")).toHaveText("Veelgestelde vragen");
    await expect(topic, situation).toHaveAttribute("open", "");
    await expect(topic.locator("summary")).toHaveAttribute("aria-expanded", "true");
    await expect(page.locator("details.faq-nav__item[open]")).toHaveCount(1);
  });

  test("the subscription page's tab, or its open sections on a small screen", async ({
    page,
    situation,
  }, testInfo) => {
    await page.goto(subscription);
    const wide = widthOf(testInfo) > 725;
    if (wide) {
      await page.getByRole("tab", { name: "Uploads" }).click();
      await expect(page.getByRole("tab", { name: "Uploads" })).toHaveAttribute("aria-selected", "true");
    } else {
      await page.getByRole("button", { name: "Vragen", exact: true }).click();
      await expect(page.getByRole("button", { name: "Vragen", exact: true })).toHaveAttribute(
        "aria-expanded",
        "true",
      );
    }
    await wanderOff(page);
    await back(page);
    if (wide) {
      await expect(page.getByRole("tab", { name: "Uploads" }), situation).toHaveAttribute(
        "aria-selected",
        "true",
      );
      await expect(page.getByRole("tabpanel")).toContainText("Je hebt nog geen foto's geüpload.");
    } else {
      for (const [name, open] of [
        ["Abonnementen", "true"],
        ["Uploads", "false"],
        ["Vragen", "true"],
      ] as const)
        await expect(page.getByRole("button", { name, exact: true }), situation).toHaveAttribute(
          "aria-expanded",
          open,
        );
    }
  });
});

test.describe("Without JavaScript, the address carries the choice @no-js-only", () => {
  test("Back shows the option the shopper last asked for, selects and price agreeing", async ({
    page,
    situation,
  }) => {
    await page.goto(book);
    await page.getByLabel("Oriëntatie").selectOption({ label: "Vierkant" });
    await page.getByRole("button", { name: "Toon deze uitvoering" }).click();
    await expect(page).toHaveURL(/\?orientatie=vierkant&formaat=30x30$/);
    const price = await page.locator("[data-product-price]").textContent();
    await wanderOff(page);
    await page.goBack();
    await expect(page, situation).toHaveURL(/\?orientatie=vierkant&formaat=30x30$/);
    await expect(page.getByLabel("Oriëntatie")).toHaveValue("vierkant");
    await expect(page.getByLabel("Formaat")).toHaveValue("30x30");
    await expect(page.locator("[data-product-price]")).toHaveText(price ?? "");
  });
});
