import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";
import { markPage, stayedOnPage } from "./page-loads.ts";

const library = "/patroonbibliotheek";

async function fillGood(page: Page) {
  await page.fill("#example-name", "Anna de Vries");
  await page.fill("#example-email", "anna@example.nl");
  await page.selectOption("#example-country", "NL");
  await page.fill("#example-postcode", "1234 AB");
  await page.fill("#example-password", "Zomer aan zee 2026!");
  await page.fill("#example-passwordConfirm", "Zomer aan zee 2026!");
}

test.describe("Ajax links, with JavaScript @js-only @once", () => {
  test("put the answer in place by each of the four modes, without a page load", async ({
    page,
    situation,
  }) => {
    await page.goto(`${library}#ajax-link`);
    await markPage(page);
    const box = page.locator("#tip-box");
    await page.getByRole("link", { name: "Vervang de tip" }).click();
    await expect(box.locator(".pattern-tip"), situation).toHaveCount(1);
    await expect(box, situation).toContainText("vakantiefoto");

    await page.getByRole("link", { name: "Tip ervoor" }).click();
    await expect(box.locator(".pattern-tip")).toHaveCount(2);
    await expect(box.locator(".pattern-tip").first()).toContainText("vierkant fotoboek");

    await page.getByRole("link", { name: "Tip erachter" }).click();
    await expect(box.locator(".pattern-tip")).toHaveCount(3);
    await expect(box.locator(".pattern-tip").last()).toContainText("vakantiefoto");

    await page.getByRole("link", { name: "Vervang het hele vak" }).click();
    await expect(page.locator("#tip-box-whole")).toHaveCount(0);
    await expect(page.locator("#ajax-link .pattern-tip", { hasText: "omslag" })).toHaveCount(1);
    expect(await stayedOnPage(page), situation).toBe(true);
    await expect(page.locator("[data-ajax-status]")).toHaveText("De inhoud is bijgewerkt.");
  });

  test("send other methods as POST with X-HTTP-Method-Override", async ({ page, situation }) => {
    await page.goto(`${library}#method-override`);
    const request = page.waitForRequest(
      (r) => r.url().endsWith("/patroonbibliotheek/tip") && r.method() === "POST",
    );
    await page.getByRole("button", { name: "Verwijder de tip" }).click();
    expect((await request).headers()["x-http-method-override"], situation).toBe("DELETE");
    await expect(page.locator("#tip-delete-result")).toHaveText(/De tip is verwijderd/);
  });
});

test.describe("The example form, with JavaScript @js-only @once", () => {
  test("checks on submit, lists the problems on top, and then checks live", async ({ page, situation }) => {
    await page.goto(`${library}#ajax-form`);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posts.push(r.url());
    });
    await page.getByRole("button", { name: "Versturen" }).click();
    const summary = page.locator("#example-summary");
    await expect(summary, situation).toBeFocused();
    await expect(summary.getByRole("link")).toHaveCount(6);
    await expect(page.locator("#example-name")).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#example-name")).toHaveAttribute("aria-describedby", /example-name-error/);
    await expect(page.locator("#example-name-error")).toContainText("Dit is een verplicht veld.");
    expect(posts, "nothing is sent while the form has errors").toEqual([]);

    await summary.getByRole("link", { name: "Dit is een verplicht veld." }).first().click();
    await expect(page.locator("#example-name")).toBeFocused();
    await page.keyboard.type("Anna");
    await expect(page.locator("#example-name")).toHaveAttribute("aria-invalid", "false");
    await expect(page.locator("#example-name-error")).toBeHidden();
  });

  test("asks the server whether the postcode fits the country", async ({ page, situation }) => {
    await page.goto(`${library}#ajax-form`);
    await fillGood(page);
    await page.fill("#example-postcode", "10115");
    const check = page.waitForRequest(
      (r) => r.url().includes("/api/postcode-controle?") && r.url().includes("country=NL"),
    );
    await page.getByRole("button", { name: "Versturen" }).click();
    await check;
    await expect(page.locator("#example-postcode-error"), situation).toContainText(
      "Vul een Nederlandse postcode in, zoals 1234 AB.",
    );
    await page.selectOption("#example-country", "DE");
    await expect(page.locator("#example-postcode-error")).toBeHidden();
  });

  test("shows password strength in words as the shopper types", async ({ page, situation }) => {
    await page.goto(`${library}#ajax-form`);
    // The rule examples further down have a password field with a meter of their own.
    const text = page.locator("#ajax-form .strength-meter__text");
    await page.fill("#example-password", "wachtwoord");
    await expect(text, situation).toHaveText(
      /Wachtwoordsterkte: zwak \(0%\)\. Dit wachtwoord of een deel ervan is te bekend\./,
    );
    await page.fill("#example-password", "Zomer aan zee 2026!");
    await expect(text).toHaveText(/Wachtwoordsterkte: (goed|sterk) \(\d+%\)\./);
    expect(
      await page
        .locator("#ajax-form meter.strength-meter__bar")
        .evaluate((m) => (m as HTMLMeterElement).value),
    ).toBeGreaterThan(41);
  });

  test("swaps in the server's 422 answer when the server finds what the page did not check", async ({
    page,
    situation,
  }) => {
    await page.goto(`${library}#ajax-form`);
    await markPage(page);
    await fillGood(page);
    // An out-of-date page that knows none of the rules: only the server can refuse it now.
    await page.evaluate(() => {
      for (const el of document.querySelectorAll("#example-form-region [data-val]"))
        el.removeAttribute("data-val");
    });
    await page.fill("#example-email", "anna@");
    const response = page.waitForResponse((r) => r.url().endsWith("/patroonbibliotheek/formulier"));
    await page.getByRole("button", { name: "Versturen" }).click();
    expect((await response).status()).toBe(422);
    await expect(page.locator("#example-summary"), situation).toBeFocused();
    await expect(page.locator("#example-summary")).toContainText("Vul hier een geldig e-mailadres in.");
    await expect(page.locator("#example-name")).toHaveValue("Anna de Vries");
    expect(await stayedOnPage(page)).toBe(true);
  });

  test("thanks the shopper in place when all is well", async ({ page, situation }) => {
    await page.goto(`${library}#ajax-form`);
    await markPage(page);
    await fillGood(page);
    await page.getByRole("button", { name: "Versturen" }).click();
    await expect(page.locator("#example-form-region"), situation).toHaveText(/Bedankt, Anna de Vries\./);
    expect(await stayedOnPage(page)).toBe(true);
  });
});

test.describe("The same links and forms when JavaScript is unavailable @no-js-only @once", () => {
  test("an ajax link simply opens its page", async ({ page, situation }) => {
    await page.goto(`${library}#ajax-link`);
    await page.getByRole("link", { name: "Vervang de tip" }).click();
    await page.waitForURL(/\/patroonbibliotheek\/tip\?n=2$/);
    await expect(page.locator("h1"), situation).toHaveText("Fototip");
  });

  test("the DELETE form posts and comes back with the result", async ({ page, situation }) => {
    await page.goto(`${library}#method-override`);
    await page.getByRole("button", { name: "Verwijder de tip" }).click();
    await page.waitForURL(/deleted=1#method-override$/);
    await expect(page.locator("#tip-delete-result"), situation).toHaveText(/De tip is verwijderd/);
  });

  test("the server checks the form and shows it again with messages and every value kept", async ({
    page,
    situation,
  }) => {
    await page.goto(`${library}#ajax-form`);
    await fillGood(page);
    await page.fill("#example-name", "");
    await page.fill("#example-postcode", "0000 XX");
    const response = page.waitForResponse((r) => r.url().endsWith("/patroonbibliotheek/formulier"));
    await page.getByRole("button", { name: "Versturen" }).click();
    expect((await response).status(), situation).toBe(422);
    await expect(page.locator("#example-summary")).toContainText("Dit is een verplicht veld.");
    await expect(page.locator("#example-summary")).toContainText(
      "Vul een Nederlandse postcode in, zoals 1234 AB.",
    );
    await expect(page.locator("#example-email")).toHaveValue("anna@example.nl");
    await expect(page.locator("#example-postcode")).toHaveValue("0000 XX");
    await expect(page.locator("#example-country")).toHaveValue("NL");

    await fillGood(page);
    await page.getByRole("button", { name: "Versturen" }).click();
    await page.waitForURL(/thanks=Anna/);
    await expect(page.locator("#example-form-region")).toHaveText(/Bedankt, Anna de Vries\./);
  });
});

/** The validation hook's rule examples: one field per rule (server/forms/pattern-rules-form.ts). */
const ruleFields = [
  "required",
  "email",
  "url",
  "date",
  "number",
  "digits",
  "creditcard",
  "original",
  "repeat",
  "minlength",
  "maxlength",
  "rangelength",
  "min",
  "max",
  "range",
  "regex",
  "country",
  "postcode",
  "password",
];
const rulesSubmit = { nl: "Controleer alle regels", de: "Alle Regeln prüfen" } as const;

/** Values that break their rule; the date and the number are written the English way. */
async function fillBadRules(page: Page) {
  await page.fill("#rules-email", "anna@");
  await page.fill("#rules-url", "www.example.nl");
  await page.fill("#rules-date", "2026-02-28");
  await page.fill("#rules-number", "1,234.5");
  await page.fill("#rules-creditcard", "4111 1111 1111 1112");
  await page.fill("#rules-original", "Zomer");
  await page.fill("#rules-repeat", "zomer");
  await page.fill("#rules-range", "13");
  await page.fill("#rules-regex", "foto-2026");
  await page.fill("#rules-password", "Zomer aan zee 2026!");
}

test.describe("Every validation rule in the pattern library", () => {
  test("has a field for each rule, in Dutch and in German @once", async ({ page, situation }) => {
    for (const path of ["/patroonbibliotheek", "/musterbibliothek"]) {
      await page.goto(`${path}#validation`);
      for (const name of ruleFields)
        await expect(page.locator(`#rules-${name}`), `${name} ${situation}`).toBeVisible();
    }
  });

  test("judges a field when the shopper leaves it, and again as they correct it @js-only @once", async ({
    page,
    situation,
  }) => {
    await page.goto(`${library}#validation`);
    const url = page.getByLabel("Webadres", { exact: true });
    await url.fill("www.example.nl");
    await expect(page.locator("#rules-url-error"), "nothing while typing").toBeHidden();
    await url.press("Tab");
    await expect(page.locator("#rules-url-error"), situation).toHaveText(
      "Fout: Vul hier een geldige URL in.",
    );
    await expect(url).toHaveAttribute("aria-invalid", "true");
    await expect(
      page.locator("#rules-required-error"),
      "a field only passed through stays quiet",
    ).toBeHidden();
    await url.fill("https://www.example.nl/fotoboeken");
    await expect(page.locator("#rules-url-error")).toBeHidden();
    await expect(url).toHaveAttribute("aria-invalid", "false");
  });

  test("lists every broken rule on submit and sends nothing, then answers in place @js-only @once", async ({
    page,
    situation,
  }) => {
    await page.goto(`${library}#validation`);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST") posts.push(r.url());
    });
    await fillBadRules(page);
    await page.getByRole("button", { name: rulesSubmit.nl }).click();
    const summary = page.locator("#rules-summary");
    await expect(summary, situation).toBeFocused();
    // required, email, url, date, number, creditcard, repeat, range, regex
    await expect(summary.getByRole("link")).toHaveCount(9);
    await expect(summary).toContainText("Vul hier een geldig getal in.");
    await expect(page.locator("#rules-date-error")).toHaveText("Fout: Vul hier een geldige datum in.");
    expect(posts, "nothing is sent while the form has errors").toEqual([]);

    await markPage(page);
    await page.fill("#rules-required", "Anna");
    await page.fill("#rules-email", "anna@example.nl");
    await page.fill("#rules-url", "https://www.example.nl/fotoboeken");
    await page.fill("#rules-date", "28-02-2026");
    await page.fill("#rules-number", "1.234,5");
    await page.fill("#rules-creditcard", "4111 1111 1111 1111");
    await page.fill("#rules-repeat", "Zomer");
    await page.fill("#rules-range", "12");
    await page.fill("#rules-regex", "FOTO-2026");
    await page.getByRole("button", { name: rulesSubmit.nl }).click();
    await expect(page.locator("#rules-form-region .form-success")).toHaveText(/Alles klopt/);
    await expect(page.locator("#rules-number"), "the values stay to try again").toHaveValue("1.234,5");
    expect(await stayedOnPage(page)).toBe(true);
  });

  test("without JavaScript, the server judges with the same rules and keeps every value @no-js-only @once", async ({
    page,
    situation,
  }) => {
    await page.goto(`${library}#validation`);
    await fillBadRules(page);
    const response = page.waitForResponse((r) => r.url().includes("/patroonbibliotheek/regels"));
    await page.getByRole("button", { name: rulesSubmit.nl }).click();
    expect((await response).status(), situation).toBe(422);
    const summary = page.locator("#rules-summary");
    for (const text of [
      "Dit is een verplicht veld.",
      "Vul hier een geldig e-mailadres in.",
      "Vul hier een geldige URL in.",
      "Vul hier een geldige datum in.",
      "Vul hier een geldig getal in.",
      "Vul hier een geldig creditcardnummer in.",
      "Vul hier dezelfde waarde in.",
      "Vul hier een waarde in van minimaal 1 en maximaal 12.",
      "Controleer dit veld.",
    ])
      await expect(summary, text).toContainText(text);
    await expect(page.locator("#rules-url-error")).toHaveText("Fout: Vul hier een geldige URL in.");
    await expect(page.locator("#rules-number")).toHaveValue("1,234.5");
    await expect(page.locator("#rules-repeat")).toHaveValue("zomer");

    await page.goto("/musterbibliothek#validation");
    await page.fill("#rules-required", "Anna");
    await page.fill("#rules-date", "28.02.2026");
    await page.fill("#rules-number", "1.234,5");
    await page.fill("#rules-min", "24,5");
    await page.fill("#rules-postcode", "10115");
    await page.fill("#rules-password", "Zomer aan zee 2026!");
    await page.getByRole("button", { name: rulesSubmit.de }).click();
    await page.waitForURL(/\/musterbibliothek\?rules=ok#rules-form-region$/);
    await expect(page.locator("#rules-form-region .form-success")).toHaveText(/Alles stimmt/);
  });
});
