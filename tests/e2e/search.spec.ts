import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";

const words = {
  nl: { field: "Zoeken in de klantenservice", button: "Zoeken", suggestions: "Suggesties" },
  de: { field: "Im Kundenservice suchen", button: "Suchen", suggestions: "Vorschläge" },
} as const;

test.describe("The support search, without JavaScript @no-js-only @once", () => {
  test("sends the words from the FAQ page to the results page, whose results lead to their pages", async ({
    page,
    situation,
  }) => {
    await page.goto("/klantenservice/faq/overzicht");
    await page.getByRole("searchbox", { name: words.nl.field }).fill("levertijden");
    await page.getByRole("button", { name: words.nl.button, exact: true }).click();
    await expect(page, situation).toHaveURL("/klantenservice/zoeken?q=levertijden");
    await expect(page.getByText("5 resultaten voor „levertijden”")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Veelgestelde vragen (3)" })).toBeVisible();
    await expect(page.getByRole("searchbox", { name: words.nl.field })).toHaveValue("levertijden");
    await expectAccessible(page, `on the results page ${situation}`);
    await page.getByRole("link", { name: "Leveren jullie ook op feestdagen?" }).first().click();
    await expect(page).toHaveURL("/klantenservice/faq/levering/feestdagen");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Leveren jullie ook op feestdagen?");
  });

  test("finds German products by a plural with umlauts, from the delivery-times page", async ({ page }) => {
    await page.goto("/kundenservice/lieferzeiten");
    await page.getByRole("searchbox", { name: words.de.field }).fill("Fotobücher");
    await page.getByRole("button", { name: words.de.button, exact: true }).click();
    await expect(page).toHaveURL(/\/kundenservice\/suche\?q=Fotob/);
    const products = page.getByRole("region", { name: /^Produkte/ });
    await products.getByRole("link", { name: "Klassisches Fotobuch" }).click();
    await expect(page).toHaveURL("/sortiment/fotobuecher/klassisches-fotobuch");
  });

  test("helps on when the field is empty or nothing is found: the FAQ overview and the contact form", async ({
    page,
    situation,
  }) => {
    await page.goto("/klantenservice");
    await page.getByRole("button", { name: words.nl.button, exact: true }).click();
    await expect(page).toHaveURL("/klantenservice/zoeken?q=");
    await expect(page.getByRole("heading", { name: "Waar kunnen we je mee helpen?" })).toBeVisible();
    await expectAccessible(page, `on the empty search page ${situation}`);
    await page.getByRole("searchbox", { name: words.nl.field }).fill("xyzzy");
    await page.getByRole("button", { name: words.nl.button, exact: true }).click();
    await expect(page.getByRole("heading", { name: "Geen resultaten voor „xyzzy”" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Alle veelgestelde vragen per onderwerp" })).toHaveAttribute(
      "href",
      "/klantenservice/faq/overzicht",
    );
    await expectAccessible(page, `on the page without results ${situation}`);
    await page.getByRole("link", { name: "Stel je vraag via het contactformulier" }).click();
    await expect(page).toHaveURL("/klantenservice/contact");
  });
});

test.describe("The support search, with JavaScript @js-only", () => {
  test("suggests as the shopper types and opens a suggestion with ArrowDown and Enter @once", async ({
    page,
    situation,
  }) => {
    await page.goto("/klantenservice");
    const field = page.getByRole("combobox", { name: words.nl.field });
    await expect(field).toHaveAttribute("aria-expanded", "false");
    await field.pressSequentially("levertijd");
    const listbox = page.getByRole("listbox", { name: words.nl.suggestions });
    await expect(listbox, situation).toBeVisible();
    await expect(field).toHaveAttribute("aria-expanded", "true");
    await expect(listbox.getByRole("option")).toHaveCount(5);
    await expect(page.locator("[data-support-search-status]")).toHaveText("5 suggesties");
    await field.press("ArrowDown");
    await field.press("ArrowDown");
    const second = listbox.getByRole("option").nth(1);
    await expect(second).toHaveAttribute("aria-selected", "true");
    await expect(field).toHaveAttribute("aria-activedescendant", (await second.getAttribute("id")) ?? "");
    await expect(field).toBeFocused();
    await field.press("Enter");
    await expect(page).toHaveURL("/klantenservice/faq/levering/feestdagen");
  });

  test("suggests in German too, and a click opens the suggestion @once", async ({ page }) => {
    await page.goto("/kundenservice/faq/uebersicht");
    await page.getByRole("combobox", { name: words.de.field }).pressSequentially("Rechnung");
    const option = page.getByRole("option", { name: /^Bekomme ich eine Rechnung\?/ });
    await expect(option).toBeVisible();
    await expect(page.locator("[data-support-search-status]")).toHaveText(/^\d+ Vorschl(ag|äge)$/);
    await option.click();
    await expect(page).toHaveURL("/kundenservice/faq/bezahlung/rechnung");
  });

  test("closes with Escape, empties with a second; Enter without a chosen suggestion opens the results @once", async ({
    page,
  }) => {
    await page.goto("/klantenservice/levertijden");
    const field = page.getByRole("combobox", { name: words.nl.field });
    await field.pressSequentially("fotoboek");
    const listbox = page.getByRole("listbox", { name: words.nl.suggestions });
    await expect(listbox).toBeVisible();
    await field.press("Escape");
    await expect(listbox).toBeHidden();
    await expect(field).toHaveValue("fotoboek");
    await field.press("Escape");
    await expect(field).toHaveValue("");
    await field.pressSequentially("fotoboeken");
    await expect(listbox).toBeVisible();
    await field.press("Enter");
    await expect(page).toHaveURL("/klantenservice/zoeken?q=fotoboeken");
    await expect(page.getByText(/^\d+ resultaten voor „fotoboeken”$/)).toBeVisible();
  });

  test("passes axe on the results page and with the suggestions open @axe", async ({ page, situation }) => {
    await page.goto("/klantenservice/zoeken?q=levertijd");
    await expectAccessible(page, `on the results page ${situation}`);
    const field = page.getByRole("combobox", { name: words.nl.field });
    await field.fill("");
    await field.pressSequentially("foto");
    await expect(page.getByRole("listbox", { name: words.nl.suggestions })).toBeVisible();
    await field.press("ArrowDown");
    await expectAccessible(page, `with the suggestions open ${situation}`);
  });
});
