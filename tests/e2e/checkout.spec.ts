import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { mailTo } from "./mailbox.ts";
import { markPage, stayedOnPage } from "./page-loads.ts";

/** What a shopper reads and clicks on the way to an order, per language. */
const journeys = [
  {
    lang: "nl",
    language: "Dutch",
    product: "/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&formaat=21x30",
    contents: /\/winkelwagen\/inhoud$/,
    addressUrl: /\/winkelwagen\/adres$/,
    overview: /\/winkelwagen\/overzicht$/,
    confirmation: /\/bestelling\/\d{6,}\?code=[\w-]{43}$/,
    quantity: "Aantal",
    addToCart: "In winkelwagen",
    viewCart: "Bekijk je winkelwagen",
    cartTitle: "Winkelwagen",
    lineQuantity: "Aantal van Exclusief fotoboek",
    update: /^Bijwerken\s*: Exclusief fotoboek/,
    updated: "Het aantal van Exclusief fotoboek (Staand, 21x30 cm) is nu 3.",
    quantityError: "Kies een aantal van 1 tot en met 99.",
    tipsTitle: "Onze tips: Leuk bij je bestelling!",
    // Screen readers hear the product after the visible words, so every tip's button has its own name.
    tip: /^In winkelwagen\s*: Klassieke fotoafdrukken \(Liggend, 15x10 cm\)$/,
    tipLine: "Klassieke fotoafdrukken",
    items: (n: number) => `${n} artikel${n === 1 ? "" : "en"}`,
    toAddress: "Verder naar je adres",
    addressTitle: "Je bezorgadres",
    labels: {
      name: "Naam",
      street: "Straat en huisnummer",
      postcode: "Postcode",
      city: "Plaats",
      country: "Land",
      email: "E-mailadres",
    },
    address: {
      name: "Anna de Vries",
      street: "Dorpsstraat 12",
      city: "Utrecht",
      country: "NL",
      email: "anna@example.nl",
    },
    badPostcode: "12345",
    postcodeError: "Vul een Nederlandse postcode in, zoals 1234 AB.",
    requiredError: "Dit is een verplicht veld.",
    goodPostcode: "1234 AB",
    submitAddress: "Verder naar het overzicht",
    overviewTitle: "Controleer je bestelling",
    overviewFacts: ["Dorpsstraat 12", "1234 AB Utrecht", "Productietijd: 3 tot 5 werkdagen"],
    place: "Bestellen met betalingsverplichting",
    exclusion: "voor persoonlijk gemaakte producten geldt geen herroepingsrecht",
    legalLinks: [
      ["Algemene voorwaarden", "/algemene-voorwaarden"],
      ["Informatie over het herroepingsrecht", "/herroepingsrecht"],
    ],
    mailTerms: ["\nAlgemene voorwaarden\n", "\nHerroepingsrecht\n", "Modelformulier voor herroeping"],
    testPayment: /\/testbetaling\/tp_[\w-]+$/,
    paid: "Betaald",
    confirmPaid: "Uitkomst bevestigen",
    thanks: "Bedankt voor je bestelling!",
    number: /Je bestelnummer is \d{6,}\./,
  },
  {
    lang: "de",
    language: "German",
    product: "/sortiment/fotobuecher/exklusives-fotobuch?ausrichtung=hochformat&format=21x30",
    contents: /\/einkaufswagen\/inhalt$/,
    addressUrl: /\/einkaufswagen\/adresse$/,
    overview: /\/einkaufswagen\/uebersicht$/,
    confirmation: /\/bestellung\/\d{6,}\?code=[\w-]{43}$/,
    quantity: "Anzahl",
    addToCart: "In den Einkaufswagen",
    viewCart: "Zum Einkaufswagen",
    cartTitle: "Einkaufswagen",
    lineQuantity: "Anzahl von Exklusives Fotobuch",
    update: /^Aktualisieren\s*: Exklusives Fotobuch/,
    updated: "Die Anzahl von Exklusives Fotobuch (Hochformat, 21x30 cm) ist jetzt 3.",
    quantityError: "Bitte wählen Sie eine Anzahl von 1 bis 99.",
    tipsTitle: "Unsere Tipps: Passend zu Ihrer Bestellung!",
    tip: /^In den Einkaufswagen\s*: Klassische Fotoabzüge \(Querformat, 15x10 cm\)$/,
    tipLine: "Klassische Fotoabzüge",
    items: (n: number) => `${n} Artikel`,
    toAddress: "Weiter zur Adresse",
    addressTitle: "Ihre Lieferadresse",
    labels: {
      name: "Name",
      street: "Straße und Hausnummer",
      postcode: "Postleitzahl",
      city: "Ort",
      country: "Land",
      email: "E-Mail-Adresse",
    },
    address: {
      name: "Jonas Becker",
      street: "Hauptstraße 5",
      city: "Berlin",
      country: "DE",
      email: "jonas@example.de",
    },
    badPostcode: "1234 AB",
    postcodeError: "Geben Sie eine fünfstellige deutsche Postleitzahl ein, zum Beispiel 10115.",
    requiredError: "Dieses Feld ist ein Pflichtfeld.",
    goodPostcode: "10115",
    submitAddress: "Weiter zur Übersicht",
    overviewTitle: "Bestellung prüfen",
    overviewFacts: ["Hauptstraße 5", "10115 Berlin", "Produktionszeit: 3 bis 5 Werktage"],
    place: "Zahlungspflichtig bestellen",
    exclusion: "Für nach Kundenspezifikation angefertigte Waren besteht kein Widerrufsrecht.",
    legalLinks: [
      ["Allgemeine Geschäftsbedingungen", "/agb"],
      ["Widerrufsbelehrung", "/widerrufsbelehrung"],
    ],
    mailTerms: ["\nAllgemeine Geschäftsbedingungen\n", "\nWiderrufsbelehrung\n", "Muster-Widerrufsformular"],
    testPayment: /\/testzahlung\/tp_[\w-]+$/,
    paid: "Bezahlt",
    confirmPaid: "Ergebnis bestätigen",
    thanks: "Vielen Dank für Ihre Bestellung!",
    number: /Ihre Bestellnummer lautet \d{6,}\./,
  },
] as const;

const headerCount = (page: Page) => page.locator(".site-header .cart-link__count");

async function fitsTheScreen(page: Page, where: string) {
  // After a form post the address changes before the stylesheet has loaded; measure the styled page.
  await page.waitForLoadState("load");
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
    innerWidth: window.innerWidth,
  }));
  const offenders = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.body.querySelectorAll("*")]
      .filter((e) => e.getBoundingClientRect().right > width + 0.5 && e.getBoundingClientRect().width > 0)
      .map((e) => `${e.tagName}.${[...e.classList].join(".")} ${Math.round(e.getBoundingClientRect().right)}`)
      .slice(0, 15);
  });
  expect(scrollWidth, `page width ${where} ${offenders.join(" | ")}`).toBeLessThanOrEqual(innerWidth);
}

for (const j of journeys) {
  test.describe(`A ${j.language} shopper ordering a photo book`, () => {
    test(`goes from the product page to the order confirmation, in ${j.language} @axe`, async ({
      page,
      scripts,
      situation,
    }) => {
      // Five pages, each checked with axe: more than the default half minute on a busy machine.
      test.slow();
      const js = scripts === "on";
      const step = async (name: string) => {
        await expect(page.locator("html")).toHaveAttribute("lang", j.lang);
        await fitsTheScreen(page, `${name} ${situation}`);
        await expectAccessible(page, `${name} ${situation}`);
      };

      await test.step("adds the book on its product page", async () => {
        await page.goto(j.product);
        await step("on the product page");
        await page.getByLabel(j.quantity, { exact: true }).fill("2");
        await page.getByRole("button", { name: j.addToCart, exact: true }).click();
        if (js) {
          await expect(headerCount(page), situation).toHaveText(j.items(2));
          await page.getByRole("link", { name: j.viewCart }).click();
        }
        await expect(page, situation).toHaveURL(j.contents);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(j.cartTitle);
        await expect(headerCount(page)).toHaveText(j.items(2));
        await step("on the cart");
      });

      await test.step("changes the quantity", async () => {
        if (js) await markPage(page);
        await page.getByLabel(j.lineQuantity).fill("3");
        await page.getByRole("button", { name: j.update }).click();
        if (js) await expect(page.locator(".cart-message"), situation).toHaveText(j.updated);
        await expect(headerCount(page), situation).toHaveText(j.items(3));
        await expect(page.getByLabel(j.lineQuantity)).toHaveValue("3");
        if (js) expect(await stayedOnPage(page), `no page load ${situation}`).toBe(true);
      });

      await test.step("is told when a quantity cannot be ordered, and the cart stays as it was", async () => {
        await page.getByLabel(j.lineQuantity).fill("0");
        await page.getByRole("button", { name: j.update }).click();
        await expect(
          page.locator(".field-message").filter({ hasText: j.quantityError }),
          situation,
        ).toBeVisible();
        await expect(page.getByLabel(j.lineQuantity)).toHaveValue("0");
        await expect(headerCount(page)).toHaveText(j.items(3));
        await step("on the cart with a refused quantity");
      });

      await test.step("adds one of the tips", async () => {
        await expect(page.getByRole("heading", { name: j.tipsTitle })).toBeVisible();
        const tip = page.getByRole("button", { name: j.tip });
        await tip.scrollIntoViewIfNeeded();
        await tip.click();
        await expect(
          page.locator(".cart-line__name").filter({ hasText: j.tipLine }),
          situation,
        ).toBeVisible();
        await expect(headerCount(page), situation).toHaveText(j.items(4));
        // What is in the cart is no tip any more.
        await expect(page.getByRole("button", { name: j.tip })).toHaveCount(0);
        if (js) expect(await stayedOnPage(page), `no page load ${situation}`).toBe(true);
        await step("on the cart with a tip added");
      });

      await test.step("gives the delivery address, correcting what was missing or wrong", async () => {
        await page.getByRole("link", { name: j.toAddress }).click();
        await expect(page, situation).toHaveURL(j.addressUrl);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(j.addressTitle);
        await step("on the address step");
        await page.getByLabel(j.labels.name, { exact: true }).fill(j.address.name);
        await page.getByLabel(j.labels.street, { exact: true }).fill(j.address.street);
        await page.getByLabel(j.labels.postcode, { exact: true }).fill(j.badPostcode);
        await page.getByLabel(j.labels.country, { exact: true }).selectOption(j.address.country);
        await page.getByLabel(j.labels.email, { exact: true }).fill(j.address.email);
        await page.getByRole("button", { name: j.submitAddress }).click();
        await expect(page.locator(".error-summary"), situation).toContainText(j.postcodeError);
        await expect(page.locator(".error-summary")).toContainText(j.requiredError);
        await expect(page.locator("#address-postcode-error")).toContainText(j.postcodeError);
        // Nothing typed is lost.
        await expect(page.getByLabel(j.labels.street, { exact: true })).toHaveValue(j.address.street);
        await expect(page.getByLabel(j.labels.email, { exact: true })).toHaveValue(j.address.email);
        await step("on the address step with errors");
        await page.getByLabel(j.labels.city, { exact: true }).fill(j.address.city);
        await page.getByLabel(j.labels.postcode, { exact: true }).fill(j.goodPostcode);
        if (js) {
          // Corrected fields are checked again as the shopper goes; once every check has answered,
          // the form must still be sent when every rule answers at once on submit.
          await page.getByLabel(j.labels.email, { exact: true }).focus();
          await expect(page.locator("#address-postcode-error")).toBeEmpty();
          await expect(page.locator("#address-city-error")).toBeEmpty();
        }
        await page.getByRole("button", { name: j.submitAddress }).click();
        await expect(page, situation).toHaveURL(j.overview);
      });

      await test.step("checks the overview and places the order", async () => {
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(j.overviewTitle);
        for (const fact of j.overviewFacts) await expect(page.locator("main")).toContainText(fact);
        // What the law wants directly above the order button: the exclusion and the terms' links.
        const above = page.locator(".checkout-essentials:has(+ form.checkout-place)");
        await expect(above, situation).toContainText(j.exclusion);
        for (const [name, href] of j.legalLinks) {
          await expect(above.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
        }
        await expect(page.locator("form.checkout-place").getByRole("button")).toHaveText(j.place);
        await step("on the overview");
        await page.getByRole("button", { name: j.place }).click();
        // Paying is tests/e2e/paying.spec.ts's journey: here the test payment is simply paid.
        await expect(page, situation).toHaveURL(j.testPayment);
        await page.getByLabel(j.paid, { exact: true }).check();
        await page.getByRole("button", { name: j.confirmPaid }).click();
        await expect(page, situation).toHaveURL(j.confirmation);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(j.thanks);
        await expect(page.locator("main")).toContainText(j.number);
        await expect(headerCount(page)).toHaveText(j.items(0));
        await step("on the order confirmation");
        // The confirmation mail is the durable copy of the terms and the withdrawal information.
        const mail = (await mailTo(j.address.email, "order-confirmation")).replaceAll("\r\n", "\n");
        for (const words of j.mailTerms) expect(mail, situation).toContain(words);
      });
    });
  });
}

test.describe("Removing the last line from the cart", () => {
  test("leaves a friendly empty cart and a header that says 0", async ({ page, scripts, situation }) => {
    await page.goto("/assortiment/wanddecoratie/foto-op-canvas");
    await page.getByRole("button", { name: "In winkelwagen", exact: true }).click();
    if (scripts === "on") await page.getByRole("link", { name: "Bekijk je winkelwagen" }).click();
    await expect(page).toHaveURL(/\/winkelwagen\/inhoud$/);
    await expect(headerCount(page)).toHaveText("1 artikel");
    if (scripts === "on") await markPage(page);
    await page.getByRole("button", { name: /^Verwijderen\s*: Foto op canvas/ }).click();
    await expect(page.locator("main"), situation).toContainText("Je winkelwagen is leeg");
    await expect(headerCount(page), situation).toHaveText("0 artikelen");
    if (scripts === "on") {
      await expect(page.locator(".cart-message")).toHaveText(
        "Foto op canvas (Liggend, 60x40 cm) is uit je winkelwagen verwijderd.",
      );
      expect(await stayedOnPage(page), `no page load ${situation}`).toBe(true);
    }
    await page.waitForLoadState("load");
    await expectAccessible(page, `the emptied cart ${situation}`);
  });
});

test.describe("Adding a product the shop no longer knows (withdrawn while the page was open)", () => {
  test("says so where the shopper is, and leaves the cart as it was @once", async ({
    page,
    scripts,
    situation,
  }) => {
    await page.goto("/assortiment/fotoboeken/exclusief-fotoboek");
    await page
      .locator('#add-to-cart input[name="product"]')
      .evaluate((input) => input.setAttribute("value", "withdrawn-photobook"));
    if (scripts === "on") await markPage(page);
    await page.getByRole("button", { name: "In winkelwagen", exact: true }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Dit product kennen we niet (meer)." }),
      situation,
    ).toBeVisible();
    if (scripts === "on") {
      // In the product page's add-to-cart region, without a page load.
      await expect(page.locator("#add-to-cart .notice")).toContainText("Je winkelwagen is niet veranderd.");
      expect(await stayedOnPage(page), `no page load ${situation}`).toBe(true);
    } else {
      await expect(page, situation).toHaveURL(/\/winkelwagen\/inhoud$/);
    }
    await expect(headerCount(page)).toHaveText("0 artikelen");
  });
});

test.describe("The checkout's steps", () => {
  test("lead a shopper with an empty cart back to the cart", async ({ page, situation }) => {
    await page.goto("/winkelwagen/overzicht");
    await expect(page, situation).toHaveURL(/\/winkelwagen\/inhoud$/);
    await expect(page.locator("main")).toContainText("Je winkelwagen is leeg");
  });
});
