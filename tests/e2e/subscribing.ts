import type { Page } from "@playwright/test";
import { expect } from "./fixtures.ts";
import { mailTo, shopLink } from "./mailbox.ts";

/** What a shopper reads and types while signing up, per language. */
const words = {
  nl: {
    page: (plan: string) => `/abonnement?abonnement=${plan}`,
    name: "Naam",
    email: "E-mailadres",
    password: "Kies een wachtwoord",
    again: "Herhaal je wachtwoord",
    secret: "Zomer aan zee 2026!",
    signUp: "Abonnement afsluiten",
    confirmLink: /^\/abonnement\/bevestigen\//,
    confirm: "Bevestigen en betalen",
    paid: "Betaald",
    decide: "Uitkomst bevestigen",
    status: /\/abonnement\/status\/[\w-]{22}$/,
  },
  de: {
    page: (plan: string) => `/abo?tarif=${plan}`,
    name: "Name",
    email: "E-Mail-Adresse",
    password: "Passwort wählen",
    again: "Passwort wiederholen",
    secret: "Sommer am Meer 2026!",
    signUp: "Abo abschließen",
    confirmLink: /^\/abo\/bestaetigen\//,
    confirm: "Bestätigen und bezahlen",
    paid: "Bezahlt",
    decide: "Ergebnis bestätigen",
    status: /\/abo\/status\/[\w-]{22}$/,
  },
} as const;

/** An address of this run's own, so that journeys sharing the shop's database never meet. */
export const uniqueEmail = (who: string, domain = "example.nl") =>
  `${who}-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@${domain}`;

/**
 * Signs up for `plan` as a shopper does, with or without JavaScript: the form, the mailed
 * link, the first month paid on the test provider's page. Answers the subscription's id,
 * from the status page it lands on.
 */
export async function subscribeAndPay(
  page: Page,
  options: { lang: "nl" | "de"; plan: "basis" | "plus" | "premium"; name: string; email: string },
): Promise<string> {
  const w = words[options.lang];
  await page.goto(w.page(options.plan));
  await page.getByLabel(w.name, { exact: true }).fill(options.name);
  await page.getByLabel(w.email).fill(options.email);
  await page.getByLabel(w.password).fill(w.secret);
  await page.getByLabel(w.again).fill(w.secret);
  await page.getByRole("button", { name: w.signUp }).click();
  await page.goto(shopLink(await mailTo(options.email, "subscription-confirm"), w.confirmLink));
  await page.getByRole("button", { name: w.confirm }).click();
  await page.getByLabel(w.paid, { exact: true }).check();
  await page.getByRole("button", { name: w.decide }).click();
  await expect(page).toHaveURL(w.status);
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}
