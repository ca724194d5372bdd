import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

/** Paying an order through the built-in test provider, per language. */
const journeys = [
  {
    lang: "nl",
    language: "Dutch",
    product: "/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&formaat=21x30",
    addToCart: "In winkelwagen",
    address: "/winkelwagen/adres",
    fields: {
      Naam: "Anna de Vries",
      "Straat en huisnummer": "Dorpsstraat 12",
      Postcode: "1234 AB",
      Plaats: "Utrecht",
      "E-mailadres": "anna@example.nl",
    },
    submitAddress: "Verder naar het overzicht",
    place: "Bestellen met betalingsverplichting",
    testPage: /\/testbetaling\/tp_[\w-]+$/,
    testTitle: "Testbetaling",
    banner: "Dit is een testbetaling",
    outcomes: { paid: "Betaald", failed: "Mislukt", canceled: "Geannuleerd", open: "Open laten" },
    confirm: "Uitkomst bevestigen",
    orderPage: /\/bestelling\/\d{6,}\?code=[\w-]{43}$/,
    paid: "Betaald",
    awaiting: "Wacht op betaling",
    failed: "De betaling is niet gelukt",
    open: "We hebben je betaling nog niet ontvangen",
    received: "Je betaling is ontvangen",
    method: "Creditcard (test)",
    payAgain: "Betaal opnieuw",
  },
  {
    lang: "de",
    language: "German",
    product: "/sortiment/fotobuecher/exklusives-fotobuch?ausrichtung=hochformat&format=21x30",
    addToCart: "In den Einkaufswagen",
    address: "/einkaufswagen/adresse",
    fields: {
      Name: "Jonas Becker",
      "Straße und Hausnummer": "Hauptstraße 5",
      Postleitzahl: "10115",
      Ort: "Berlin",
      "E-Mail-Adresse": "jonas@example.de",
    },
    submitAddress: "Weiter zur Übersicht",
    place: "Zahlungspflichtig bestellen",
    testPage: /\/testzahlung\/tp_[\w-]+$/,
    testTitle: "Testzahlung",
    banner: "Dies ist eine Testzahlung",
    outcomes: { paid: "Bezahlt", failed: "Fehlgeschlagen", canceled: "Abgebrochen", open: "Offen lassen" },
    confirm: "Ergebnis bestätigen",
    orderPage: /\/bestellung\/\d{6,}\?code=[\w-]{43}$/,
    paid: "Bezahlt",
    awaiting: "Zahlung ausstehend",
    failed: "Die Zahlung ist nicht gelungen",
    open: "Ihre Zahlung ist noch nicht bei uns eingegangen",
    received: "Ihre Zahlung ist eingegangen",
    method: "Kreditkarte (Test)",
    payAgain: "Erneut bezahlen",
  },
] as const;

type Journey = (typeof journeys)[number];

/** A photo book in the cart, the address given, the order placed: the test payment page is open. */
async function placeOrder(page: Page, j: Journey, situation: string): Promise<string> {
  await page.goto(j.product);
  await page.getByRole("button", { name: j.addToCart, exact: true }).click();
  // With JavaScript the book is added in place: the header's count says when it is in.
  await expect(page.locator(".site-header .cart-link__count"), situation).toHaveAttribute("data-count", "1");
  await page.goto(j.address);
  for (const [label, value] of Object.entries(j.fields)) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByRole("button", { name: j.submitAddress }).click();
  await page.getByRole("button", { name: j.place }).click();
  await expect(page, situation).toHaveURL(j.testPage);
  return page.url();
}

/** On the test payment page, marked as a test everywhere: chooses the outcome, lands on the order page. */
async function decide(page: Page, j: Journey, outcome: keyof Journey["outcomes"], situation: string) {
  await expect(page).toHaveTitle(new RegExp(`^${j.testTitle} `));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(j.testTitle);
  await expect(page.locator("main")).toContainText(j.banner);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await page.getByLabel(j.outcomes[outcome], { exact: true }).check();
  await page.getByRole("button", { name: j.confirm }).click();
  await expect(page, situation).toHaveURL(j.orderPage);
}

const status = (page: Page) => page.locator('[data-island="payment-status"]');

for (const j of journeys) {
  test.describe(`A ${j.language} shopper paying an order`, () => {
    test(`pays, and the order page says it is paid, in ${j.language} @axe`, async ({ page, situation }) => {
      await placeOrder(page, j, situation);
      await expectAccessible(page, `the test payment page ${situation}`);
      await decide(page, j, "paid", situation);
      await expect(status(page), situation).toContainText(j.paid);
      await expect(page.getByRole("button", { name: j.payAgain })).toHaveCount(0);
      await expectAccessible(page, `the paid order's page ${situation}`);
    });

    test(`pays again after a failed payment, choosing the method, in ${j.language} @axe`, async ({
      page,
      situation,
    }) => {
      await placeOrder(page, j, situation);
      await decide(page, j, "failed", situation);
      await expect(status(page), situation).toContainText(j.failed);
      await expect(status(page)).toContainText(j.awaiting);
      await expectAccessible(page, `the order page after a failed payment ${situation}`);
      await page.getByLabel(j.method, { exact: true }).check();
      await page.getByRole("button", { name: j.payAgain }).click();
      await expect(page, situation).toHaveURL(j.testPage);
      await decide(page, j, "paid", situation);
      await expect(status(page), situation).toContainText(j.paid);
    });

    test(`leaves the payment open, and the order page shows it paid once it is, without a reload, in ${j.language} @js-only @once`, async ({
      page,
      context,
      situation,
    }) => {
      const testPage = await placeOrder(page, j, situation);
      await decide(page, j, "open", situation);
      await expect(status(page), situation).toContainText(j.open);
      // A mark on this very document: a reload would lose it.
      await page.evaluate(() => document.documentElement.setAttribute("data-journey-mark", "kept"));
      // The provider decides later, as a bank app does in another window: the shop hears it
      // through its webhook, and the open page asks again (1 s, 2 s, 4 s …) until it knows.
      const bank = await context.newPage();
      await bank.goto(testPage);
      await decide(bank, j, "paid", situation);
      await bank.close();
      await expect(status(page), situation).toContainText(j.paid, { timeout: 15_000 });
      // Said politely to screen readers, on the same document.
      await expect(page.getByRole("status").filter({ hasText: j.received })).toHaveCount(1);
      await expect(page.locator("html"), "the page was not reloaded").toHaveAttribute(
        "data-journey-mark",
        "kept",
      );
      await expect(page.getByRole("button", { name: j.payAgain })).toHaveCount(0);
    });

    test(`cancels, and may pay again, in ${j.language} @once`, async ({ page, situation }) => {
      await placeOrder(page, j, situation);
      await decide(page, j, "canceled", situation);
      await expect(status(page), situation).toContainText(j.failed);
      await expect(status(page)).toContainText(j.awaiting);
      await expect(page.getByRole("button", { name: j.payAgain })).toBeVisible();
    });
  });
}
