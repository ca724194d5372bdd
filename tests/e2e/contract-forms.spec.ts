import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { mailTo, shopLink } from "./mailbox.ts";
import { dayAfter, shown, staffRefused } from "./staff-commands.ts";
import { subscribeAndPay, uniqueEmail } from "./subscribing.ts";

test.describe("Cancelling the photo subscription without signing in", () => {
  test("in German, from the footer: Jetzt kündigen, the confirmation page, the mail's link @no-js-only @once", async ({
    page,
    situation,
  }, testInfo) => {
    // A sign-up, a payment, three posts and two mails read: more than a plain page's 30 s on a busy machine.
    test.slow();
    const email = uniqueEmail("jonas", "example.de");
    await subscribeAndPay(page, { lang: "de", plan: "plus", name: "Jonas Becker", email });

    // Signed in by the sign-up, but the form asks nothing of that: a fresh browser would see the same.
    await page.goto("/de");
    await page.locator(".site-footer").getByRole("link", { name: "Verträge hier kündigen" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Verträge hier kündigen");
    if (testInfo.project.metadata.axe) await expectAccessible(page, "on the cancellation form");
    await page.getByLabel("Name", { exact: true }).fill("Jonas Becker");
    await page.getByLabel("E-Mail-Adresse").fill(email);
    await page.getByRole("button", { name: "Weiter" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kündigung prüfen");
    await expect(page.locator(".contract-summary")).toContainText("Ordentliche Kündigung");
    if (testInfo.project.metadata.axe) await expectAccessible(page, "on the check page");
    await page.getByRole("button", { name: "Jetzt kündigen" }).click();
    await expect(page.getByRole("heading", { level: 1 }), situation).toHaveText(
      "Ihre Kündigung ist eingegangen",
    );
    await expect(page.locator("main")).toContainText(
      `Eine Bestätigung mit diesen Angaben haben wir an ${email} gesendet.`,
    );

    const mail = await mailTo(email, "contract-cancel-received");
    expect(mail).toContain("ist diese Kündigung bei uns eingegangen");
    await page.goto(shopLink(mail, /^\/kuendigen\/bestaetigen\//));
    await page.getByRole("button", { name: "Kündigung bestätigen" }).click();
    await expect(page.locator("main"), situation).toContainText(
      "Ihre Kündigung ist wirksam. Ihr Foto-Abo endet am",
    );
    expect(await mailTo(email, "subscription-cancelled")).toContain("Ihr Abo endet am");
  });
});

test.describe("Withdrawing from the photo subscription without signing in", () => {
  test("in German, from the footer within the 14 days, with the unused days refunded; staff are refused after them @no-js-only @once", async ({
    page,
    baseURL,
    situation,
  }, testInfo) => {
    test.slow();
    const shop = baseURL ?? "";
    const email = uniqueEmail("mia", "example.de");
    const id = await subscribeAndPay(page, { lang: "de", plan: "plus", name: "Mia Wagner", email });

    // A letter that arrived after the 14 days: customer service's command refuses it, and nothing changes.
    const late = staffRefused(shop, "withdraw", id, "--as-of", dayAfter(shown(shop, id).paidUntil));
    expect(late.status).toBe(1);
    expect(late.output).toContain("de herroepingstermijn liep tot en met");
    expect(shown(shop, id).text).toContain(": actief");

    // Today, from the footer, without signing in.
    await page.context().clearCookies();
    await page.goto("/de");
    await page.locator(".site-footer").getByRole("link", { name: "Vertrag widerrufen" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vertrag widerrufen");
    if (testInfo.project.metadata.axe) await expectAccessible(page, "on the withdrawal form");
    await page.getByLabel("Name", { exact: true }).fill("Mia Wagner");
    await page.getByLabel("E-Mail-Adresse").fill(email);
    await page.getByRole("button", { name: "Weiter" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Widerruf prüfen");
    await page.getByRole("button", { name: "Widerruf bestätigen" }).click();
    await expect(page.getByRole("heading", { level: 1 }), situation).toHaveText(
      "Ihr Widerruf ist eingegangen",
    );

    await page.goto(
      shopLink(await mailTo(email, "contract-withdraw-received"), /^\/widerrufen\/bestaetigen\//),
    );
    await page.getByRole("button", { name: "Widerruf bestätigen" }).click();
    // Plus's first month at 2,99 €, one day of it used: the rest comes back.
    const outcome = page.locator("main");
    await expect(outcome, situation).toContainText(
      /Ihr Foto-Abo ist widerrufen und beendet\. Wir erstatten Ihnen 2,\d\d\s€/,
    );
    const refunded = /Wir erstatten Ihnen (2,\d\d)\s€/.exec((await outcome.textContent()) ?? "")?.[1];
    expect(await mailTo(email, "subscription-withdrawn")).toMatch(new RegExp(`${refunded}\\s€`));
    expect(shown(shop, id).text).toContain(": herroepen");
  });
});
