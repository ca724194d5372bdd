import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { mailTo, shopLink } from "./mailbox.ts";
import { dayAfter, shown, staff } from "./staff-commands.ts";
import { subscribeAndPay, uniqueEmail } from "./subscribing.ts";

test.describe("The photo subscription month after month", () => {
  test("in German without JavaScript: renewed, a failed month paid by hand, cancelled, then nothing charged @no-js-only @once", async ({
    page,
    baseURL,
    situation,
  }, testInfo) => {
    // A dozen staff commands (each a Node start) and four payments: more than a page's 30 s.
    test.setTimeout(90_000);
    const shop = baseURL ?? "";
    const email = uniqueEmail("jonas", "example.de");

    // 1. Sign up, confirm the address from the mail, pay the first month.
    const id = await subscribeAndPay(page, { lang: "de", plan: "premium", name: "Jonas Becker", email });
    await expect(page.locator('[data-island="payment-status"]')).toContainText("Aktiv");
    const first = shown(shop, id);
    expect(first.paidUntil).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(first.charges).toEqual([]);

    // 2. A month later the renewal charges the mandate, with nobody at the screen; paid, it mails the invoice.
    staff(shop, "renew", "--as-of", dayAfter(first.paidUntil));
    const renewing = shown(shop, id);
    expect(renewing.charges).toHaveLength(1);
    expect(renewing.charges[0]).toContain(`${dayAfter(first.paidUntil)} t/m`);
    await page.goto(renewing.newestChargePage());
    await page.getByLabel("Bezahlt", { exact: true }).check();
    await page.getByRole("button", { name: "Ergebnis bestätigen" }).click();
    expect(await mailTo(email, "subscription-renewed")).toContain("läuft einen Monat weiter");
    const renewed = shown(shop, id);
    expect(renewed.paidUntil > first.paidUntil).toBe(true);
    expect(renewed.text).toContain(": actief");

    // 3. The next month's charge fails: past due, and a mail with a link to pay by hand.
    staff(shop, "renew", "--as-of", dayAfter(renewed.paidUntil));
    await page.goto(shown(shop, id).newestChargePage());
    await page.getByLabel("Fehlgeschlagen", { exact: true }).check();
    await page.getByRole("button", { name: "Ergebnis bestätigen" }).click();
    const failedMail = await mailTo(email, "subscription-charge-failed");
    expect(failedMail).toContain("nicht abbuchen");
    expect(shown(shop, id).text).toContain(": betaling mislukt");

    // 4. Paying by hand from the mail's link, without signing in, brings it back to active.
    // Signed out first: the link alone must do (the sign-up had signed the shopper in).
    await page.context().clearCookies();
    await page.goto(shopLink(failedMail, /^\/abo\/bezahlen\/[\w-]+$/));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Bezahlen Sie den offenen Monat");
    if (testInfo.project.metadata.axe) await expectAccessible(page, "the page that pays a failed month");
    await page.getByRole("button", { name: "Jetzt bezahlen" }).click();
    await page.getByLabel("Bezahlt", { exact: true }).check();
    await page.getByRole("button", { name: "Ergebnis bestätigen" }).click();
    await expect(page.locator("main"), situation).toContainText("Dieser Monat ist bezahlt.");
    expect(await mailTo(email, "subscription-paid-by-hand")).toContain("vielen Dank für Ihre Zahlung");
    const repaired = shown(shop, id);
    expect(repaired.text).toContain(": actief");
    expect(repaired.paidUntil > renewed.paidUntil).toBe(true);

    // 5. Cancelled from the footer's link without signing in: the end date by page and mail…
    // The shop runs on today's clock while the staff's renewal days lie months ahead, so its
    // today comes before both months paid since (by the mandate and by hand): both are paid
    // back and the subscription ends today. Cancelling within a paid month, which ends it at
    // the month's end, is contract-forms.spec.ts.
    await page.goto("/de");
    await page.locator(".site-footer").getByRole("link", { name: "Verträge hier kündigen" }).click();
    await page.getByLabel("Name", { exact: true }).fill("Jonas Becker");
    await page.getByLabel("E-Mail-Adresse").fill(email);
    await page.getByRole("button", { name: "Weiter" }).click();
    await page.getByRole("button", { name: "Jetzt kündigen" }).click();
    await page.goto(shopLink(await mailTo(email, "contract-cancel-received"), /^\/kuendigen\/bestaetigen\//));
    await page.getByRole("button", { name: "Kündigung bestätigen" }).click();
    const outcome = page.locator("main");
    await expect(outcome, situation).toContainText(
      "Ihre Kündigung ist wirksam. Sie ging vor der letzten Abbuchung ein",
    );
    await expect(outcome).toContainText("wir erstatten Ihnen 9,98 €");
    const cancelledMail = await mailTo(email, "subscription-cancelled");
    expect(cancelledMail).toContain("Ihr Abo endet am");
    expect(cancelledMail).toMatch(/wir erstatten Ihnen 9,98\s€/);
    const cancelled = shown(shop, id);
    expect(cancelled.text).toContain(": opgezegd\n");

    // …and a renewal after the last paid day charges nothing.
    staff(shop, "renew", "--as-of", dayAfter(repaired.paidUntil));
    const after = shown(shop, id);
    expect(after.text).toContain(": opgezegd\n");
    expect(after.charges).toEqual(cancelled.charges);
  });
});
