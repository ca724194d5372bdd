import type { Page, TestInfo } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { mailTo, shopLink } from "./mailbox.ts";

/**
 * A shopper's account, with JavaScript and without: making one from the mailed link,
 * signing out and in, a wrong password, a forgotten one, the account's pages, the cart that
 * joins the account's, and deleting it. They do not depend on the screen's width (@once);
 * axe checks every page that is new with them.
 */
const password = "Zomer aan zee 2026!";
const newPassword = "Winter in de bergen 2027?";

/** An address no other run of the journeys uses. */
const uniqueEmail = (who: string) =>
  `${who}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.nl`;

async function checkAxe(page: Page, testInfo: TestInfo | undefined, where: string) {
  if (testInfo?.project.metadata.axe) await expectAccessible(page, where);
}

/**
 * Makes an account from the sign-in page through the mailed link; the browser ends signed
 * in. `testInfo` checks the pages on the way with axe (once is enough: one journey does).
 */
async function createAccount(page: Page, email: string, situation: string, testInfo?: TestInfo) {
  await page.goto("/inloggen");
  await checkAxe(page, testInfo, `the sign-in page ${situation}`);
  await page.getByRole("link", { name: "Account aanmaken" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Account aanmaken");
  await checkAxe(page, testInfo, `the page to make an account ${situation}`);
  await page.getByLabel("Naam", { exact: true }).fill("Anna de Vries");
  await page.getByLabel("E-mailadres").fill(email);
  await page.getByLabel("Kies een wachtwoord").fill(password);
  await page.getByLabel("Herhaal je wachtwoord").fill(password);
  await page.getByRole("button", { name: "Account aanmaken" }).click();
  await expect(page.locator("main"), situation).toContainText(`We hebben een e-mail gestuurd naar ${email}.`);
  await checkAxe(page, testInfo, `the page that says the link went out ${situation}`);

  await page.goto(shopLink(await mailTo(email, "account-confirm"), /^\/account\/bevestigen\//));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Activeer je account");
  await checkAxe(page, testInfo, `the account link's page ${situation}`);
  await page.getByRole("button", { name: "Account activeren" }).click();
  await expect(page, situation).toHaveURL(/\/account$/);
  await expect(page.locator("main")).toContainText("Je account is klaar. Welkom!");
}

async function signIn(page: Page, email: string, secret: string) {
  await page.getByLabel("E-mailadres").fill(email);
  await page.getByLabel("Wachtwoord", { exact: true }).fill(secret);
  await page.getByRole("button", { name: "Inloggen" }).click();
}

test.describe("A shopper's account", () => {
  test("is made from the mailed link; signing out, a wrong password, and signing in again @once", async ({
    page,
    situation,
  }, testInfo) => {
    // Six pages checked with axe on the way, a few seconds each.
    test.slow();
    const email = uniqueEmail("anna");
    await createAccount(page, email, situation, testInfo);
    await expect(page.locator(".site-header")).toContainText("Mijn account");
    await checkAxe(page, testInfo, `the account's start ${situation}`);

    await page.getByRole("button", { name: "Uitloggen", exact: true }).click();
    await expect(page, situation).toHaveURL(/\/inloggen$/);
    await expect(page.locator("main")).toContainText("Je bent uitgelogd.");
    await expect(page.locator(".site-header")).toContainText("Inloggen");

    await signIn(page, email, "Niet mijn wachtwoord 1!");
    await expect(page.locator("main"), situation).toContainText(
      "Het e-mailadres of het wachtwoord klopt niet.",
    );
    await expect(page.getByLabel("E-mailadres")).toHaveValue(email);
    await expect(page.getByLabel("Wachtwoord", { exact: true })).toHaveValue("");
    await checkAxe(page, testInfo, `the refused sign-in ${situation}`);

    await signIn(page, email, password);
    await expect(page, situation).toHaveURL(/\/account$/);
    await expect(page.locator("main")).toContainText("Je bent ingelogd.");
  });

  test("a forgotten password is reset by mail, in German @once", async ({ page, situation }, testInfo) => {
    const email = uniqueEmail("jonas");
    await createAccount(page, email, situation);
    await page.getByRole("button", { name: "Uitloggen", exact: true }).click();

    await page.goto("/anmelden");
    await page.getByRole("link", { name: "Passwort vergessen?" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Passwort vergessen");
    await checkAxe(page, testInfo, `the forgotten-password page ${situation}`);
    await page.getByLabel("E-Mail-Adresse").fill(email);
    await page.getByRole("button", { name: "Link schicken" }).click();
    await expect(page.locator("main"), situation).toContainText(`Wenn es ein Konto mit ${email} gibt`);

    await page.goto(shopLink(await mailTo(email, "password-reset"), /^\/passwort-zuruecksetzen\//));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Neues Passwort wählen");
    await checkAxe(page, testInfo, `the reset page ${situation}`);
    await page.getByLabel("Neues Passwort", { exact: true }).fill(newPassword);
    await page.getByLabel("Neues Passwort wiederholen").fill(newPassword);
    await page.getByRole("button", { name: "Passwort speichern" }).click();
    await expect(page, situation).toHaveURL(/\/konto$/);
    await expect(page.locator("main")).toContainText("Ihr neues Passwort ist gespeichert.");
  });

  test("its pages: orders, photos, subscription, settings and privacy @once", async ({
    page,
    situation,
  }, testInfo) => {
    // Five pages checked with axe, a few seconds each.
    test.slow();
    await createAccount(page, uniqueEmail("bram"), situation);
    for (const [link, heading] of [
      ["Mijn bestellingen", "Mijn bestellingen"],
      ["Mijn foto's en projecten", "Mijn foto's en projecten"],
      ["Mijn abonnement", "Mijn abonnement"],
      ["E-mailadres en wachtwoord", "E-mailadres en wachtwoord"],
      ["Privacy: je gegevens downloaden of je account verwijderen", "Privacy"],
    ] as const) {
      await page.goto("/account");
      await page.getByRole("link", { name: link }).click();
      await expect(page.getByRole("heading", { level: 1 }), situation).toHaveText(heading);
      await checkAxe(page, testInfo, `${heading} ${situation}`);
    }
  });

  test("its addresses, which the checkout offers filled in @once", async ({ page, situation }, testInfo) => {
    await createAccount(page, uniqueEmail("bas"), situation);
    await page.goto("/account");
    await page.getByRole("link", { name: "Mijn adressen" }).click();
    await page.getByLabel("Naam", { exact: true }).fill("Bram Bakker");
    await page.getByLabel("Straat en huisnummer").fill("Kerkplein 1");
    await page.getByLabel("Postcode").fill("3511 AB");
    await page.getByLabel("Plaats").fill("Utrecht");
    await page.getByRole("button", { name: "Adres opslaan" }).click();
    await expect(page.locator("main"), situation).toContainText("Het adres is opgeslagen.");
    await expect(page.locator(".address-book")).toContainText("Kerkplein 1");
    await checkAxe(page, testInfo, `the address book ${situation}`);

    await page.goto("/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&formaat=21x30");
    await page.getByRole("button", { name: "In winkelwagen", exact: true }).click();
    await expect(page.locator(".site-header .cart-link__count"), situation).toHaveAttribute(
      "data-count",
      "1",
    );
    await page.goto("/winkelwagen/adres");
    await expect(page.getByLabel("Straat en huisnummer"), situation).toHaveValue("Kerkplein 1");
    await expect(
      page.getByRole("link", { name: "Gebruik het adres van Bram Bakker, Kerkplein 1" }),
    ).toBeVisible();
    await checkAxe(page, testInfo, `the address step with the account's addresses ${situation}`);
  });

  test("the cart of the browser joins the account's at sign-in @once", async ({
    page,
    browser,
    situation,
  }) => {
    const email = uniqueEmail("carla");
    const phone = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    try {
      const phonePage = await phone.newPage();
      await createAccount(phonePage, email, situation);
      await phonePage.goto("/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&formaat=21x30");
      await phonePage.getByRole("button", { name: "In winkelwagen", exact: true }).click();
      await expect(phonePage.locator(".site-header .cart-link__count")).toHaveAttribute("data-count", "1");
    } finally {
      await phone.close();
    }

    await page.goto("/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&formaat=21x30");
    await page.getByRole("button", { name: "In winkelwagen", exact: true }).click();
    await expect(page.locator(".site-header .cart-link__count"), situation).toHaveAttribute(
      "data-count",
      "1",
    );
    await page.goto("/inloggen");
    await signIn(page, email, password);
    await expect(page.locator("main"), situation).toContainText(
      "Wat in je winkelwagen lag, staat nu in de winkelwagen van je account.",
    );
    await expect(page.locator(".site-header .cart-link__count")).toHaveAttribute("data-count", "2");
  });

  test("is deleted with its password; then nothing signs in to it @once", async ({ page, situation }) => {
    const email = uniqueEmail("daan");
    await createAccount(page, email, situation);
    await page.goto("/account/privacy");
    await page.getByLabel("Huidig wachtwoord").fill(password);
    await page.getByRole("button", { name: "Verwijder mijn account" }).click();
    await expect(page.getByRole("heading", { level: 1 }), situation).toHaveText("Je account is verwijderd");
    await page.goto("/inloggen");
    await signIn(page, email, password);
    await expect(page.locator("main"), situation).toContainText(
      "Het e-mailadres of het wachtwoord klopt niet.",
    );
  });
});
