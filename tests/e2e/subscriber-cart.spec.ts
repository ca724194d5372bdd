import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { markPage, stayedOnPage } from "./page-loads.ts";
import { subscribeAndPay, uniqueEmail } from "./subscribing.ts";

const printsPage = "/assortiment/fotoafdrukken/klassieke-fotoafdrukken?orientatie=liggend&formaat=15x10";

/** Signs up for Premium (50 free 10 × 15 prints a month), confirms from the mail and pays. */
async function premiumSubscriber(page: Page, email: string) {
  await subscribeAndPay(page, { lang: "nl", plan: "premium", name: "Anna de Vries", email });
  await expect(page.locator('[data-island="payment-status"]')).toContainText("Actief");
}

test.describe("A subscriber's cart", () => {
  test("takes the month's free prints off, and follows a changed quantity @once", async ({
    page,
    scripts,
    situation,
  }, testInfo) => {
    // A sign-up with its mail and payment before the cart: more than a page's 30 s on a busy machine.
    test.slow();
    const email = uniqueEmail("anna-prints");
    await premiumSubscriber(page, email);

    await page.goto(printsPage);
    await page.getByLabel("Aantal", { exact: true }).fill("3");
    await page.getByRole("button", { name: "In winkelwagen", exact: true }).click();
    if (scripts === "on") await page.getByRole("link", { name: "Bekijk je winkelwagen" }).click();
    await expect(page, situation).toHaveURL(/\/winkelwagen\/inhoud$/);
    const totals = page.locator(".cart-totals");
    await expect(totals).toContainText("3 gratis afdrukken van je abonnement");
    await expect(page.locator("main")).toContainText("Nog 47 van je 50 gratis afdrukken deze maand.");
    if (testInfo.project.metadata.axe) await expectAccessible(page, `a subscriber's cart ${situation}`);

    // More prints than the month has left: 50 are free, the rest are paid for.
    if (scripts === "on") await markPage(page);
    await page.getByLabel("Aantal van Klassieke fotoafdrukken").fill("60");
    await page.getByRole("button", { name: /^Bijwerken\s*: Klassieke fotoafdrukken/ }).click();
    await expect(totals, situation).toContainText("50 gratis afdrukken van je abonnement");
    await expect(page.locator("main")).toContainText("Nog 0 van je 50 gratis afdrukken deze maand.");
    await expect(page.getByLabel("Aantal van Klassieke fotoafdrukken")).toHaveValue("60");
    // With JavaScript the cart's island puts the new totals in place, without a page load.
    if (scripts === "on") expect(await stayedOnPage(page), `no page load ${situation}`).toBe(true);

    // The overview says the same before the order is placed.
    await page.getByRole("link", { name: "Verder naar je adres" }).click();
    // Signed in without an address yet: the account's name and e-mail address are there already.
    await expect(page.getByLabel("Naam", { exact: true })).toHaveValue("Anna de Vries");
    await expect(page.getByLabel("E-mailadres")).toHaveValue(email);
    await page.getByLabel("Straat en huisnummer").fill("Dorpsstraat 12");
    await page.getByLabel("Postcode").fill("1234 AB");
    await page.getByLabel("Plaats").fill("Utrecht");
    await page.getByRole("button", { name: "Verder naar het overzicht" }).click();
    await expect(page, situation).toHaveURL(/\/winkelwagen\/overzicht$/);
    await expect(page.locator(".cart-totals")).toContainText("50 gratis afdrukken van je abonnement");
  });
});

test.describe("A subscriber's plan", () => {
  test("can be changed on the account's page: a smaller plan from the next month, taken back @once", async ({
    page,
    situation,
  }, testInfo) => {
    test.slow();
    const email = uniqueEmail("anna-plan");
    await premiumSubscriber(page, email);

    await page.goto("/account/abonnement");
    const choices = page.getByRole("group", { name: "Abonnement" });
    await expect(choices.getByLabel(/^Premium: je huidige abonnement/)).toBeChecked();
    if (testInfo.project.metadata.axe) await expectAccessible(page, `choosing another plan ${situation}`);

    await choices.getByLabel(/^Plus: vanaf /).check();
    await page.getByRole("button", { name: "Abonnement wijzigen" }).click();
    await expect(page, situation).toHaveURL(/\/account\/abonnement$/);
    await expect(page.getByRole("status")).toContainText(/^Je abonnement wordt Plus vanaf /);
    await expect(page.locator("main")).toContainText(/wordt je abonnement Plus, voor €\s2,99 per maand/);
    // Until then Premium stays, with its 50 prints.
    await expect(page.locator("main")).toContainText("Nog 50 van je 50 gratis afdrukken deze maand.");

    await page
      .getByRole("group", { name: "Abonnement" })
      .getByLabel(/^Premium: /)
      .check();
    await page.getByRole("button", { name: "Abonnement wijzigen" }).click();
    await expect(page.getByRole("status")).toContainText(
      "Je houdt Premium; de geplande wijziging gaat niet door.",
    );
    await expect(page.locator("main")).not.toContainText("wordt je abonnement Plus");
  });
});
