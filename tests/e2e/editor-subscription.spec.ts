import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page, TestInfo } from "@playwright/test";
import sharp from "sharp";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { mailTo, shopLink } from "./mailbox.ts";

const bookPage = "/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&formaat=21x30";

/** Photos made for the run (nothing binary in the repository) and a text file with a photo's name. */
const files = await (async () => {
  const dir = mkdtempSync(join(tmpdir(), "photo-shop-photos-"));
  const write = (name: string, data: Buffer) => {
    writeFileSync(join(dir, name), data);
    return join(dir, name);
  };
  return {
    beach: write(
      "strand.jpg",
      await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#3a7bd5" } })
        .jpeg()
        .toBuffer(),
    ),
    forest: write(
      "bos.png",
      await sharp({ create: { width: 900, height: 1200, channels: 3, background: "#2f5d3a" } })
        .png()
        .toBuffer(),
    ),
    notes: write("notities.jpg", Buffer.from("Dit is een boodschappenlijst, geen foto.\n")),
  };
})();

/** axe, in the projects that run it (playwright.config.ts: runsAxe). */
async function checkAxe(page: Page, testInfo: TestInfo, where: string): Promise<void> {
  if (testInfo.project.metadata.axe) await expectAccessible(page, where);
}

const uniqueEmail = (who: string) =>
  `${who}-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.nl`;

test.describe("A shopper making a photo book", () => {
  test("starts from the product page with the chosen format carried over", async ({
    page,
    situation,
  }, testInfo) => {
    await page.goto(bookPage);
    await page.getByRole("button", { name: "Maak dit fotoboek met je eigen foto's" }).click();
    await expect(page, situation).toHaveURL(
      /\/fotoboek-maken\?fotoboek=exclusief-fotoboek&orientatie=(staand|portrait)&formaat=21x30/,
    );
    await expect(page.locator("h1")).toHaveText("Maak je fotoboek: Exclusief fotoboek");
    await expect(page.getByLabel("Formaat")).toHaveValue("portrait:21x30");
    await checkAxe(page, testInfo, situation);
  });

  test("after changing the option on the product page, starts with that option @js-only", async ({
    page,
    situation,
  }) => {
    await page.goto(bookPage);
    await page.getByLabel("Oriëntatie").selectOption({ label: "Vierkant" });
    await page.getByRole("button", { name: "Maak dit fotoboek met je eigen foto's" }).click();
    await expect(page.getByLabel("Formaat"), situation).toHaveValue("square:30x30");
  });

  test("uploads photos one by one with progress, sees refused files explained, and lands on the project @js-only", async ({
    page,
    situation,
  }, testInfo) => {
    await page.goto("/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30");
    await page.getByLabel("Foto's kiezen").setInputFiles([files.beach, files.forest, files.notes]);
    const list = page.locator("[data-upload-list]");
    await expect(list.locator('input[name="upload"]'), situation).toHaveCount(2);
    await expect(list).toContainText("notities.jpg: dit is geen foto.");
    await expect(page.locator("[data-upload-status]")).toHaveText("2 foto's klaar");
    await checkAxe(page, testInfo, situation);

    await page.getByRole("button", { name: "Start je fotoboek" }).click();
    await expect(page).toHaveURL(/\/fotoboek-maken\/project\/[\w-]{22}$/);
    await expect(page.locator("h1")).toHaveText("Je fotoboek");
    await expect(page.getByRole("img", { name: "Pagina 1: strand.jpg" })).toBeVisible();
    await expect(page.getByRole("img", { name: "Pagina 2: bos.png" })).toBeVisible();
    await checkAxe(page, testInfo, situation);

    await page.getByRole("button", { name: "Fotoboek in winkelwagen" }).click();
    await expect(page).toHaveURL(/\/winkelwagen\/inhoud$/);
    await expect(page.locator("#cart")).toContainText("Fotoboekproject met 2 foto's");
    await expect(page.locator("header .cart-link__count")).toHaveText("1 artikel");

    // The same photos appear on the subscription page's uploads tab.
    await page.goto("/abonnement#uploads");
    await expect(page.locator("#uploads")).toContainText("strand.jpg");
    await expect(page.locator("#uploads")).toContainText("bos.png");
    await expect(page.locator("#uploads time").first()).toHaveText(/zojuist|minu/);
  });

  test("drops photos on the picker @js-only", async ({ page, situation }) => {
    await page.goto("/fotoboek-maken?fotoboek=vierkant-fotoboek");
    const data = await sharp({ create: { width: 600, height: 600, channels: 3, background: "#d9cbb0" } })
      .jpeg()
      .toBuffer();
    const transfer = await page.evaluateHandle(
      (bytes) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(bytes)], "gesleept.jpg", { type: "image/jpeg" }));
        return dt;
      },
      [...data],
    );
    const drop = page.locator("[data-upload-drop]");
    await drop.dispatchEvent("dragover", { dataTransfer: transfer });
    await expect(drop, situation).toHaveClass(/photo-upload__drop--active/);
    await drop.dispatchEvent("drop", { dataTransfer: transfer });
    await expect(page.locator("[data-upload-list]")).toContainText("gesleept.jpg");
    await expect(page.locator('[data-upload-list] input[name="upload"]')).toHaveCount(1);
  });

  test("cancels an upload that is on its way @js-only", async ({ page, situation }) => {
    await page.goto("/fotoboek-maken?fotoboek=exclusief-fotoboek");
    // Hold the upload so it is still travelling when the shopper cancels.
    await page.route("**/fotoboek-maken/fotos", () => {});
    await page.getByLabel("Foto's kiezen").setInputFiles([files.beach]);
    const row = page.locator("[data-upload-list] li").first();
    await expect(row.locator("progress"), situation).toBeVisible();
    await row.getByRole("button", { name: "Annuleer het uploaden van strand.jpg" }).click();
    await expect(row).toContainText("Geannuleerd");
    await expect(row.getByRole("button", { name: "Opnieuw" })).toBeVisible();
  });

  test("uploads photos with the form itself when JavaScript is unavailable @no-js-only", async ({
    page,
    situation,
  }, testInfo) => {
    await page.goto("/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30");
    await page.getByLabel("Foto's kiezen").setInputFiles([files.beach, files.forest, files.notes]);
    await page.getByRole("button", { name: "Start je fotoboek" }).click();
    await expect(page, situation).toHaveURL(/\/fotoboek-maken\/project\/[\w-]{22}$/);
    await expect(page.locator(".form-success")).toHaveText("2 foto's toegevoegd aan je fotoboek.");
    await expect(page.getByRole("alert")).toContainText("notities.jpg: dit is geen foto.");
    await expect(page.getByRole("img", { name: "Pagina 2: bos.png" })).toBeVisible();
    await checkAxe(page, testInfo, situation);

    await page.getByLabel("Foto's kiezen").setInputFiles([files.beach]);
    await page.getByRole("button", { name: "Foto's toevoegen" }).click();
    await expect(page).toHaveURL(/#preview$/);
    await expect(page.getByRole("img", { name: "Pagina 3: strand.jpg" })).toBeVisible();

    await page.getByRole("button", { name: "Fotoboek in winkelwagen" }).click();
    await expect(page).toHaveURL(/\/winkelwagen\/inhoud$/);
    await expect(page.locator("#cart")).toContainText("Fotoboekproject met 3 foto's");
  });
});

test.describe("Removing photos", () => {
  test("takes a chosen photo off the list and deletes it, and a page out of the book @js-only", async ({
    page,
    situation,
  }) => {
    await page.goto("/fotoboek-maken?fotoboek=exclusief-fotoboek");
    await page.getByLabel("Foto's kiezen").setInputFiles([files.beach, files.forest]);
    const list = page.locator("[data-upload-list]");
    await expect(list.locator('input[name="upload"]'), situation).toHaveCount(2);
    await list.getByRole("button", { name: "Verwijder strand.jpg uit je keuze" }).click();
    await expect(page.locator("[data-upload-status]")).toHaveText("strand.jpg is verwijderd.");
    await expect(list.locator('input[name="upload"]')).toHaveCount(1);
    // Deleted, not just hidden: the uploads tab no longer lists it.
    await page.goto("/abonnement#uploads");
    await expect(page.locator("#uploads"), situation).toContainText("bos.png");
    await expect(page.locator("#uploads")).not.toContainText("strand.jpg");
  });

  test("works without JavaScript, from the start form and from the project @no-js-only", async ({
    page,
    situation,
  }) => {
    await page.goto("/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30");
    // A format the book is not made in brings the form back with the photos kept.
    await page.evaluate(() => {
      const select = document.querySelector<HTMLSelectElement>("#editor-format");
      select?.append(new Option("?", "portrait:99x99", true, true));
    });
    await page.getByLabel("Foto's kiezen").setInputFiles([files.beach, files.forest]);
    await page.getByRole("button", { name: "Start je fotoboek" }).click();
    await expect(
      page.getByRole("button", { name: "Verwijder strand.jpg uit je keuze" }),
      situation,
    ).toBeVisible();
    await page.getByRole("button", { name: "Verwijder strand.jpg uit je keuze" }).click();
    await expect(page.locator(".form-success"), situation).toHaveText("strand.jpg is verwijderd.");
    await expect(page.locator('[data-upload-list] input[name="upload"]')).toHaveCount(1);
    await page.getByRole("button", { name: "Start je fotoboek" }).click();
    await expect(page.getByRole("img", { name: "Pagina 1: bos.png" })).toBeVisible();
    await expect(page.getByRole("img", { name: /strand\.jpg/ })).toHaveCount(0);

    await page.getByRole("button", { name: "Verwijder bos.png uit je fotoboek" }).click();
    await expect(page).toHaveURL(/#preview$/);
    await expect(page.locator(".form-success")).toHaveText("bos.png is verwijderd.");
    await expect(page.locator("#preview")).toContainText("Je fotoboek heeft nog geen foto's.");
  });
});

test.describe("Pages after a refused or finished post, as axe sees them", () => {
  // The markup is the server's in both modes; without JavaScript each is a page of its own.
  test("the refused sign-up, the welcome, the refused start and the cart's refusal @no-js-only @once", async ({
    page,
    context,
  }) => {
    // Four posts, a password hashed, a photo processed and axe run four times: on a busy
    // machine (journeys at 42 minutes) that ran past the 30 s a test gets by default.
    test.slow();
    await page.goto("/abonnement");
    await page.getByRole("button", { name: "Abonnement afsluiten" }).click();
    await expect(page.locator("#subscription-summary")).toContainText("Dit is een verplicht veld.");
    await expectAccessible(page, "on the refused sign-up (422)");

    await page.getByLabel("Naam", { exact: true }).fill("Anna de Vries");
    await page.getByLabel("E-mailadres").fill(uniqueEmail("axe"));
    await page.getByLabel("Kies een wachtwoord").fill("Zomer aan zee 2026!");
    await page.getByLabel("Herhaal je wachtwoord").fill("Zomer aan zee 2026!");
    await page.getByRole("button", { name: "Abonnement afsluiten" }).click();
    await expect(page.locator(".subscription-welcome")).toContainText("Welkom, Anna de Vries!");
    await expectAccessible(page, "on the welcome page");

    await page.goto("/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30");
    await page.getByRole("button", { name: "Start je fotoboek" }).click();
    await expect(page.locator(".error-summary")).toContainText("Kies minstens één foto voor je fotoboek.");
    await expectAccessible(page, "on the refused start of a photo book (422)");

    // The project's last photo is removed in another tab; this tab still offers to order it.
    await page.getByLabel("Foto's kiezen").setInputFiles([files.beach]);
    await page.getByRole("button", { name: "Start je fotoboek" }).click();
    await expect(page.getByRole("img", { name: "Pagina 1: strand.jpg" })).toBeVisible();
    const other = await context.newPage();
    await other.goto(page.url());
    await other.getByRole("button", { name: "Verwijder strand.jpg uit je fotoboek" }).click();
    await expect(other.locator(".form-success")).toHaveText("strand.jpg is verwijderd.");
    await page.getByRole("button", { name: "Fotoboek in winkelwagen" }).click();
    await expect(page.locator("h1")).toHaveText("Je fotoboek heeft nog geen foto's");
    await expectAccessible(page, "on the cart's refusal of an empty photo book (422)");
  });
});

test.describe("Signing up for the photo subscription", () => {
  async function fill(page: Page, email: string) {
    await page.getByLabel("Naam", { exact: true }).fill("Anna de Vries");
    await page.getByLabel("E-mailadres").fill(email);
    await page.getByLabel("Kies een wachtwoord").fill("Zomer aan zee 2026!");
    await page.getByLabel("Herhaal je wachtwoord").fill("Zomer aan zee 2026!");
  }

  test("with a plan chosen from its card: confirms the address from the mail, pays the first month and is active", async ({
    page,
    situation,
  }) => {
    const email = uniqueEmail("anna");
    await page.goto("/abonnement");
    await expect(page.locator(".subscription__payment")).toContainText(
      "Je abonnement loopt elke maand vanzelf door",
    );
    await page.getByRole("link", { name: "Kies Premium" }).click();
    // The shopper sees the sign-up form, not the top of the plans (or the accordion's button).
    await expect(page.locator("#signup-title"), situation).toBeInViewport();
    await expect(page.getByLabel("Abonnement", { exact: true }), situation).toHaveValue("premium");
    await fill(page, email);
    await page.getByRole("button", { name: "Abonnement afsluiten" }).click();
    const welcome = page.locator(".subscription-welcome");
    await expect(welcome, situation).toContainText("Welkom, Anna de Vries!");
    await expect(welcome).toContainText(`We hebben een e-mail gestuurd naar ${email}.`);

    // The link in the mail: what was signed up for, and the button that confirms and pays.
    const mail = await mailTo(email, "subscription-confirm");
    await page.goto(shopLink(mail, /^\/abonnement\/bevestigen\//));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bevestig je fotoabonnement");
    await expect(page.locator("main")).toContainText("Nu te betalen: € 4,99 voor de eerste maand.");
    await page.getByRole("button", { name: "Bevestigen en betalen" }).click();
    await expect(page, situation).toHaveURL(/\/testbetaling\/tp_[\w-]+$/);
    await page.getByLabel("Betaald", { exact: true }).check();
    await page.getByRole("button", { name: "Uitkomst bevestigen" }).click();

    await expect(page, situation).toHaveURL(/\/abonnement\/status\/[\w-]{22}$/);
    const status = page.locator('[data-island="payment-status"]');
    await expect(status, situation).toContainText("Actief");
    await expect(status).toContainText("Je betaling is ontvangen: je abonnement is actief.");
    await expect(page.locator("main")).toContainText("Je abonnement loopt elke maand vanzelf door");
    expect(await mailTo(email, "subscription-welcome")).toContain("Je fotoabonnement Premium is actief");
  });

  test("in German, with a payment that failed first, and every new page accessible @once", async ({
    page,
    situation,
  }, testInfo) => {
    const email = uniqueEmail("jonas");
    await page.goto("/abo?tarif=plus");
    await page.getByLabel("Name", { exact: true }).fill("Jonas Becker");
    await page.getByLabel("E-Mail-Adresse").fill(email);
    await page.getByLabel("Passwort wählen").fill("Sommer am Meer 2026!");
    await page.getByLabel("Passwort wiederholen").fill("Sommer am Meer 2026!");
    await page.getByRole("button", { name: "Abo abschließen" }).click();
    await expect(page.locator(".subscription-welcome"), situation).toContainText(`an ${email} geschickt`);
    await checkAxe(page, testInfo, `the page that asks to confirm the address ${situation}`);

    await page.goto(shopLink(await mailTo(email, "subscription-confirm"), /^\/abo\/bestaetigen\//));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bestätigen Sie Ihr Foto-Abo");
    await checkAxe(page, testInfo, `the sign-up link's page ${situation}`);
    await page.getByRole("button", { name: "Bestätigen und bezahlen" }).click();
    await page.getByLabel("Fehlgeschlagen", { exact: true }).check();
    await page.getByRole("button", { name: "Ergebnis bestätigen" }).click();
    await expect(page, situation).toHaveURL(/\/abo\/status\/[\w-]{22}$/);
    const status = page.locator('[data-island="payment-status"]');
    await expect(status, situation).toContainText("Die Zahlung ist nicht gelungen");
    await checkAxe(page, testInfo, `the subscription's page after a failed payment ${situation}`);

    await page.getByRole("button", { name: "Erneut bezahlen" }).click();
    await page.getByLabel("Bezahlt", { exact: true }).check();
    await page.getByRole("button", { name: "Ergebnis bestätigen" }).click();
    await expect(status, situation).toContainText("Aktiv");
    await checkAxe(page, testInfo, `the active subscription's page ${situation}`);
  });

  test("shows the password's strength, and never says whether an address already has a subscription @js-only", async ({
    page,
    situation,
  }) => {
    const email = uniqueEmail("bram");
    await page.goto("/abonnement");
    await fill(page, email);
    await page.getByRole("button", { name: "Abonnement afsluiten" }).click();
    await expect(page.locator(".subscription-welcome")).toBeVisible();

    // Typing the address asks the server nothing about it.
    const checks: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/")) checks.push(request.url());
    });
    await page.goto("/abonnement");
    await page.getByLabel("Kies een wachtwoord").fill("fotohoek");
    await expect(page.locator(".strength-meter__text"), situation).toContainText("Wachtwoordsterkte");
    await fill(page, email);
    await page.getByRole("button", { name: "Abonnement afsluiten" }).click();
    // The same welcome as the first time; the address's owner hears about it by mail.
    await expect(page.locator(".subscription-welcome"), situation).toContainText("Welkom, Anna de Vries!");
    expect(checks, situation).toEqual([]);
  });
});
