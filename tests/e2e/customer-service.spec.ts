import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { markPage, stayedOnPage } from "./page-loads.ts";

/** The .eml files the shop's mail sender wrote (no SMTP_URL in the journeys' server). */
function mailsTo(address: string): string[] {
  const dir = join(process.env.E2E_DATA_DIR ?? "", "mail");
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
  return files
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .filter((mail) => new RegExp(`^To: ${address.replace(/[.+]/g, "\\$&")}$`, "m").test(mail));
}

/** An address of this test's own, so its mail is told apart from other journeys'. */
const addressFor = (title: string, project: string) =>
  `${title.replace(/\W+/g, "").slice(0, 20).toLowerCase()}+${project}-${Date.now()}@example.nl`;

const forms = {
  nl: {
    path: "/klantenservice/contact",
    thanks: "/klantenservice/contact/bedankt",
    name: "Naam",
    email: "E-mailadres",
    orderNumber: "Bestelnummer (niet verplicht)",
    subject: "Onderwerp",
    subjectChoice: "Een fotoboek maken",
    question: "Je vraag",
    send: "Vraag versturen",
    thanksText: (address: string) =>
      `Bedankt voor je vraag! We sturen je binnen 24 uur een antwoord op ${address}. Een kopie van je vraag is naar dat adres gestuurd.`,
    required: "Dit is een verplicht veld.",
  },
  de: {
    path: "/kundenservice/kontakt",
    thanks: "/kundenservice/kontakt/danke",
    name: "Name",
    email: "E-Mail-Adresse",
    orderNumber: "Bestellnummer (optional)",
    subject: "Thema",
    subjectChoice: "Ein Fotobuch gestalten",
    question: "Ihre Frage",
    send: "Frage absenden",
    thanksText: (address: string) =>
      `Vielen Dank für Ihre Frage! Wir senden Ihnen innerhalb von 24 Stunden eine Antwort an ${address}. Eine Kopie Ihrer Frage wurde an diese Adresse geschickt.`,
    required: "Dieses Feld ist ein Pflichtfeld.",
  },
} as const;

async function fillContact(page: Page, lang: "nl" | "de", address: string) {
  const f = forms[lang];
  await page.getByLabel(f.name, { exact: true }).fill(lang === "nl" ? "Anna de Vries" : "Jürgen Groß");
  await page.getByLabel(f.email, { exact: true }).fill(address);
  await page.getByLabel(f.subject).selectOption({ label: f.subjectChoice });
  await page
    .getByLabel(f.question, { exact: true })
    .fill(
      lang === "nl" ? "Kan ik nog een foto in mijn fotoboek wisselen?" : "Kann ich noch ein Foto tauschen?",
    );
}

for (const lang of ["nl", "de"] as const) {
  const f = forms[lang];

  test.describe(`The ${lang === "nl" ? "Dutch" : "German"} contact form, without JavaScript @no-js-only @once`, () => {
    test("sends the question, thanks the shopper by address and mails a copy and customer service", async ({
      page,
      situation,
    }, testInfo) => {
      const address = addressFor(testInfo.title, testInfo.project.name);
      await page.goto(f.path);
      await fillContact(page, lang, address);
      await page.getByRole("button", { name: f.send }).click();
      await expect(page, situation).toHaveURL(f.thanks);
      await expect(page.getByRole("status")).toHaveText(f.thanksText(address));
      await expectAccessible(page, situation);
      // Both mails went out (written as .eml files without SMTP): the copy to the shopper,
      // and the question to customer service, which answers straight to the shopper.
      await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBe(1);
      await expect
        .poll(() => mailsTo("klantenservice@fotohoek.nl").some((m) => m.includes(`Reply-To: ${address}`)), {
          timeout: 15_000,
        })
        .toBe(true);
      expect(mailsTo(address)[0]).toContain(`Content-Language: ${lang}`);
    });

    test("comes back with a message per field and everything typed when something is missing", async ({
      page,
      situation,
    }) => {
      await page.goto(f.path);
      await page.getByLabel(f.email, { exact: true }).fill("anna@example.nl");
      const response = page.waitForResponse((r) => r.request().method() === "POST");
      await page.getByRole("button", { name: f.send }).click();
      expect((await response).status(), situation).toBe(422);
      await expect(page.locator("#contact-summary")).toBeVisible();
      await expect(page.locator("#contact-name-error")).toContainText(f.required);
      await expect(page.getByLabel(f.email, { exact: true })).toHaveValue("anna@example.nl");
      await expectAccessible(page, situation);
    });
  });

  test.describe(`The ${lang === "nl" ? "Dutch" : "German"} contact form, with JavaScript @js-only @once`, () => {
    test("checks before sending, then swaps in the thank-you text without a page load", async ({
      page,
      situation,
    }, testInfo) => {
      const address = addressFor(testInfo.title, testInfo.project.name);
      await page.goto(f.path);
      await markPage(page);
      const posts: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST") posts.push(r.url());
      });
      await page.getByRole("button", { name: f.send }).click();
      await expect(page.locator("#contact-summary"), situation).toBeFocused();
      await expect(page.locator("#contact-name-error")).toContainText(f.required);
      expect(posts, "nothing is sent while the form has errors").toEqual([]);

      await fillContact(page, lang, address);
      // Pasted from the confirmation mail, spaces and all: the browser's check and the server's agree.
      await page.getByLabel(f.orderNumber, { exact: true }).fill("  FH-123456 ");
      await page.getByRole("button", { name: f.send }).click();
      const thanks = page.locator("#contact-form-region").getByRole("status");
      await expect(thanks, situation).toContainText(f.thanksText(address));
      await expect(page.locator("#contact-form-region")).toBeFocused();
      await expect(page.locator("#contact-form-region form")).toHaveCount(0);
      expect(await stayedOnPage(page), situation).toBe(true);
      await expectAccessible(page, situation);
      await expect.poll(() => mailsTo(address).length, { timeout: 15_000 }).toBe(1);
      expect(mailsTo(address)[0]).toMatch(/^Bestel+nummer: FH-123456$/m);
    });
  });
}

test.describe("The contact form, when the shop cannot be reached @js-only", () => {
  test("keeps everything typed and says so next to the form", async ({ page, situation }) => {
    await page.goto(forms.nl.path);
    await page.route("**/klantenservice/contact", (route) =>
      route.request().method() === "POST" ? route.abort("connectionreset") : route.continue(),
    );
    await fillContact(page, "nl", "anna@example.nl");
    await page.getByRole("button", { name: forms.nl.send }).click();
    await expect(page.locator(".ajax-error"), situation).toContainText("Je gegevens zijn bewaard");
    await expect(page.getByLabel("Je vraag", { exact: true })).toHaveValue(
      "Kan ik nog een foto in mijn fotoboek wisselen?",
    );
  });
});

const question = "/klantenservice/faq/levering/feestdagen";
const summaryOf = (page: Page, topic: string) =>
  page.locator(".faq-nav__summary", { has: page.locator(".faq-nav__title", { hasText: topic }) });
const itemOf = (page: Page, topic: string) =>
  page.locator("details.faq-nav__item", { has: summaryOf(page, topic) });

test.describe("The FAQ list", () => {
  test("shows the current page highlighted, in its open topic", async ({ page, situation }) => {
    await page.goto(question);
    const current = page.locator('.faq-nav a[aria-current="page"]');
    await expect(current, situation).toHaveText("Leveren jullie ook op feestdagen?");
    await expect(current).toBeVisible();
    await expect(itemOf(page, "Levering")).toHaveAttribute("open", "");
    await expect(itemOf(page, "Bestellen")).not.toHaveAttribute("open", "");
  });

  test("with JavaScript, opening a topic closes the others and says so with aria-expanded @js-only", async ({
    page,
    situation,
  }) => {
    await page.goto(question);
    await expect(summaryOf(page, "Levering"), situation).toHaveAttribute("aria-expanded", "true");
    await expect(summaryOf(page, "Betalen")).toHaveAttribute("aria-expanded", "false");

    await summaryOf(page, "Betalen").click();
    await expect(itemOf(page, "Betalen")).toHaveAttribute("open", "");
    await expect(itemOf(page, "Levering")).not.toHaveAttribute("open", "");
    await expect(summaryOf(page, "Levering")).toHaveAttribute("aria-expanded", "false");
    await expect(summaryOf(page, "Betalen")).toHaveAttribute("aria-expanded", "true");
    await expect(page.locator("details.faq-nav__item[open]")).toHaveCount(1);

    // With the keyboard too.
    await summaryOf(page, "Account").focus();
    await page.keyboard.press("Enter");
    await expect(itemOf(page, "Account")).toHaveAttribute("open", "");
    await expect(itemOf(page, "Betalen")).not.toHaveAttribute("open", "");
    await page.getByRole("link", { name: "Wat doen jullie met mijn foto's en gegevens?" }).click();
    await expect(page.locator("h1")).toHaveText("Wat doen jullie met mijn foto's en gegevens?");
    await expectAccessible(page, situation);
  });

  test("without JavaScript, every topic opens and closes on its own @no-js-only", async ({
    page,
    situation,
  }) => {
    await page.goto(question);
    await summaryOf(page, "Betalen").click();
    await expect(itemOf(page, "Betalen"), situation).toHaveAttribute("open", "");
    await expect(itemOf(page, "Levering")).toHaveAttribute("open", "");
    await page.getByRole("link", { name: "Mijn betaling is mislukt. Is mijn bestelling nu weg?" }).click();
    await expect(page.locator('.faq-nav a[aria-current="page"]')).toHaveText(
      "Mijn betaling is mislukt. Is mijn bestelling nu weg?",
    );
  });

  test("on the overview, shows the list with the overview itself as the current page", async ({
    page,
    situation,
  }) => {
    await page.goto("/kundenservice/faq/uebersicht");
    const current = page.locator('.faq-nav a[aria-current="page"]');
    await expect(current, situation).toHaveText("Alle Themen");
    await expect(current).toBeVisible();
    await expect(page.locator("details.faq-nav__item[open]")).toHaveCount(0);
    await summaryOf(page, "Lieferung").click();
    await expect(itemOf(page, "Lieferung")).toHaveAttribute("open", "");
    await itemOf(page, "Lieferung").getByRole("link", { name: "Liefern Sie auch an Feiertagen?" }).click();
    await expect(page.locator("h1")).toHaveText("Liefern Sie auch an Feiertagen?");
    await page.locator(".faq-nav").getByRole("link", { name: "Alle Themen" }).click();
    await expect(page.locator("h1")).toHaveText("Häufige Fragen");
  });

  test("leads from the support home to an answer and on to the contact form", async ({ page, situation }) => {
    await page.goto("/kundenservice");
    await summaryOf(page, "Lieferung").click();
    await page.getByRole("link", { name: "Liefern Sie auch an Feiertagen?" }).click();
    await expect(page.locator("h1"), situation).toHaveText("Liefern Sie auch an Feiertagen?");
    await page.locator(".support-help").getByRole("link", { name: "Zum Kontaktformular" }).click();
    await expect(page.locator("h1")).toHaveText("Stellen Sie Ihre Frage");
  });
});

const deliveryTimes = "/klantenservice/levertijden";
const dataPath = "/api/levertijden";

/**
 * How long the overview shown stays valid: the server's answer says until when (the
 * cut-off or midnight). Asked just after the page was made, so it may be a moment
 * shorter than the page's own; the journeys add a few seconds on top.
 */
async function validForMs(page: Page): Promise<number> {
  const overview = (await (await page.request.get(dataPath)).json()) as {
    generatedAt: string;
    refreshAt: string;
  };
  return Date.parse(overview.refreshAt) - Date.parse(overview.generatedAt);
}

test.describe("The delivery times", () => {
  test("list per product when an order placed now is sent and delivered, rush in red and in words", async ({
    page,
    situation,
  }) => {
    await page.goto(deliveryTimes);
    await expect(page.locator(".delivery-times__order-before"), situation).toHaveText(
      /^Besteld (vandaag|morgen|op \w+dag \d+ \w+) vóór 15:00 uur$/,
    );
    const book = page.locator("tbody", { has: page.getByRole("link", { name: "Exclusief fotoboek" }) });
    await expect(book.locator("tr.delivery-table__option--standard th")).toHaveText(
      /Standaard 3 tot 5 werkdagen/,
    );
    const rush = book.locator("tr.delivery-table__option--rush");
    await expect(rush.locator("th")).toHaveText(/Spoed 2 tot 4 werkdagen/);
    await expect(rush.locator(".delivery-table__kind")).toHaveCSS("color", "rgb(179, 38, 30)");
    await expect(rush.locator("td").first()).toHaveText(/^(Vandaag|Morgen|Tussen|[A-Z][a-z]+dag \d)/);
  });

  test("are the server's table when JavaScript is unavailable, with nothing fetched @no-js-only", async ({
    page,
    situation,
  }) => {
    const fetched: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes(dataPath)) fetched.push(r.url());
    });
    await page.goto(deliveryTimes);
    await expect(page.getByRole("table"), situation).toHaveCount(3);
    expect(fetched).toEqual([]);
  });

  test("stay current when the cut-off passes while the page is open @js-only", async ({
    page,
    situation,
  }) => {
    await page.clock.install({ time: new Date() });
    await page.goto(deliveryTimes);
    await expect(page.locator('[data-island="delivery-times"]')).toHaveAttribute(
      "data-island-state",
      "mounted",
    );
    const orderBefore = page.locator(".delivery-times__order-before");
    const firstSent = page.locator("tr.delivery-table__option--standard td").first();
    const shownBefore = await orderBefore.textContent();
    const sentBefore = await firstSent.textContent();
    // The shop's own clock cannot be moved: after the cut-off its answer is stood in for by
    // one whose times differ from those on the page, as the next day's would.
    const later = {
      orderBefore: shownBefore?.includes("vandaag")
        ? "Besteld morgen vóór 15:00 uur"
        : "Besteld vandaag vóór 15:00 uur",
      sent: sentBefore === "Donderdag 31 december" ? "Vrijdag 1 januari" : "Donderdag 31 december",
    };
    await page.route(`**${dataPath}`, async (route) => {
      const response = await route.fetch();
      const overview = (await response.json()) as {
        orderBefore: string;
        groups: Array<{ rows: Array<{ options: Array<{ sent: string }> }> }>;
      };
      overview.orderBefore = later.orderBefore;
      for (const option of overview.groups.flatMap((g) => g.rows.flatMap((r) => r.options))) {
        option.sent = later.sent;
      }
      await route.fulfill({ response, json: overview });
    });

    const validFor = await validForMs(page);
    const request = page.waitForRequest((r) => r.url().endsWith(dataPath));
    await page.clock.fastForward(validFor + 5_000);
    await request;
    await expect(orderBefore, situation).toHaveText(later.orderBefore);
    await expect(firstSent).toHaveText(later.sent);
    await expect(page.getByRole("table")).toHaveCount(3);
  });

  test("show the spec's text 1 with a link to customer service when they cannot be fetched @js-only", async ({
    page,
    situation,
  }) => {
    await page.route(`**${dataPath}`, (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"down"}' }),
    );
    await page.clock.install({ time: new Date() });
    await page.goto(deliveryTimes);
    await expect(page.locator('[data-island="delivery-times"]')).toHaveAttribute(
      "data-island-state",
      "mounted",
    );
    await page.clock.fastForward((await validForMs(page)) + 5_000);
    // Two more tries, a second and two seconds apart, before the island gives up.
    await page.clock.runFor(5_000);
    const alert = page.locator(".delivery-times").getByRole("alert");
    await expect(alert, situation).toContainText(
      "Het overzicht van de levertijden kan nu niet worden getoond. Probeer het later opnieuw of neem contact op met de klantenservice.",
    );
    await expect(page.getByRole("table")).toHaveCount(0);
    await expectAccessible(page, situation);
    await alert.getByRole("link", { name: "Naar de klantenservice" }).click();
    await expect(page.locator("h1")).toHaveText("Klantenservice");
  });
});

test.describe("The expected dispatch on the product page", () => {
  test("says when standard and rush production are sent, and links to all delivery times", async ({
    page,
    situation,
  }) => {
    await page.goto("/sortiment/fotobuecher/exklusives-fotobuch");
    const production = page.locator("section.production");
    await expect(production.locator(".production__dispatch").first(), situation).toHaveText(/^Versand: /);
    await expect(production.locator(".production__dispatch--rush")).toHaveText(/^Versand: /);
    await expect(production.locator(".production__note")).toContainText(
      /^Bei Bestellung (heute|morgen|am .+) vor 15:00 Uhr\./,
    );
    await production.getByRole("link", { name: "Alle Lieferzeiten" }).click();
    await expect(page.locator("h1")).toHaveText("Lieferzeiten");
  });
});

test.describe("The footer", () => {
  test("leads to the customer-service screens @once", async ({ page, situation }) => {
    await page.goto("/");
    const footer = page.locator("footer");
    for (const [link, heading] of [
      ["Klantenservice", "Klantenservice"],
      ["Veelgestelde vragen", "Veelgestelde vragen"],
      ["Contact", "Stel je vraag"],
      ["Levertijden", "Levertijden"],
    ] as const) {
      await footer.getByRole("link", { name: link, exact: true }).click();
      await expect(page.locator("h1"), situation).toHaveText(heading);
    }
  });
});
