import { describe, expect, it } from "vitest";
import { runRenewals } from "../../server/jobs/subscription-renewal.ts";
import { testDatabases } from "../support/databases.ts";
import { shopper, textOf } from "../support/shopper.ts";
import { silent, subscriptionShop } from "../support/subscription-shop.ts";

/**
 * A failed charge's mail carries a link that pays the month by hand (ADR 0106): its page
 * needs no signing in, its button goes to the test provider's page, and the webhook of the
 * paid payment makes the subscription active again, the period paid, the retries stopped.
 */
describe.each(testDatabases())("paying a failed month by hand on $name", (target) => {
  const sub = subscriptionShop(target);
  const { open, instance, subscribe, decide, rows, mails, charges, payLink, byHand } = sub;

  it("pays a past-due month from the mail's link without signing in; paid, it runs again", async () => {
    const { database } = await open();
    const { charges: job } = instance(database);
    const renew = (day: string) => runRenewals({ database, charges: job, log: silent }, day);
    const email = "by-hand@example.test";
    const { id } = await subscribe("nl", email);
    const before = (await rows(email))[0]?.mandate_id;
    await renew("2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "failed");
    expect((await rows(email))[0]?.status).toBe("past_due");
    const link = await payLink(email, "subscription-charge-failed", "nl");

    // Another browser, no cookies: the mail's link is the proof.
    const other = await shopper(sub.shop.app, "/");
    const page = await other.get(link);
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toContain("no-store");
    const text = textOf(page.body);
    expect(text).toContain("Betaal de openstaande maand van je fotoabonnement Premium");
    expect(text).toContain("maandag 28 december 2026 t/m woensdag 27 januari 2027");
    expect(text).toMatch(/€\s4,99/);
    expect(text).toContain("Betaling mislukt: we proberen het opnieuw");
    expect(page.body).toContain("Nu betalen</button>");
    expect(page.body).toContain('<meta name="robots" content="noindex');

    // The button goes to the provider; pressing it again gives the same payment back.
    const started = await other.post(link, {});
    expect(started.statusCode).toBe(303);
    const testPage = String(started.headers.location);
    expect(testPage).toMatch(new RegExp(`^${sub.origin}/testbetaling/tp_`));
    const again = await other.post(link, {});
    expect(again.headers.location).toBe(testPage);
    expect(await byHand(id)).toHaveLength(1);
    // Under way, the page says so and offers no second button.
    const pending = await other.get(link);
    expect(textOf(pending.body)).toContain("Je betaling wordt nog verwerkt.");
    expect(pending.body).not.toContain("Nu betalen</button>");

    await decide(testPage, "paid");
    const [row] = await rows(email);
    expect(row).toMatchObject({ status: "active", paid_from: "2026-12-28", paid_until: "2027-01-27" });
    // A first payment: the method just used gives the mandate the next months are charged on.
    expect(row?.mandate_id).toMatch(/^mdt_/);
    expect(row?.mandate_id).not.toBe(before);
    // The old method is revoked at the provider: nothing can be charged on it any more.
    const mandates = await sub.shop.database.db
      .selectFrom("test_mandates")
      .select(["id", "status"])
      .where("id", "in", [String(before), String(row?.mandate_id)])
      .execute();
    expect(Object.fromEntries(mandates.map((m) => [m.id, m.status]))).toEqual({
      [String(before)]: "revoked",
      [String(row?.mandate_id)]: "valid",
    });
    const paid = (await mails(email)).filter((m) => m.kind === "subscription-paid-by-hand");
    expect(paid).toHaveLength(1);
    expect(paid[0]?.text_body).toContain("Je fotoabonnement Premium loopt weer");
    expect(paid[0]?.text_body).toContain("maandag 28 december 2026 t/m woensdag 27 januari 2027");
    expect((await byHand(id)).map((p) => p.status)).toEqual(["paid"]);

    // Paid: the page says so; a second press starts nothing.
    const done = await other.get(link);
    expect(textOf(done.body)).toContain("Deze maand is betaald.");
    expect(done.body).not.toContain("Nu betalen</button>");
    const twice = await other.post(link, {});
    expect(twice.statusCode).toBe(409);
    expect(await byHand(id)).toHaveLength(1);

    // The retry after 3 days does not come: the period is paid. The next one is charged on the new mandate.
    expect(await renew("2026-12-31")).toMatchObject({ counts: { charged: 0 } });
    expect(await renew("2027-01-28")).toMatchObject({ counts: { charged: 1 } });
    const next = (await charges(id)).at(-1);
    expect(next).toMatchObject({ period_start: "2027-01-28", attempt: 1, amount_cents: 499 });
    expect((await mails(email)).filter((m) => m.kind === "subscription-paid-by-hand")).toHaveLength(1);
  });

  it("a suspended subscription is paid by hand in German; a failed try leaves it suspended, tried again", async () => {
    const { database } = await open();
    const { charges: job } = instance(database);
    const renew = (day: string) => runRenewals({ database, charges: job, log: silent }, day);
    const email = "by-hand-de@example.test";
    const { id } = await subscribe("de", email);
    await renew("2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "failed");
    await renew("2026-12-31");
    await decide((await charges(id))[1]?.page_url ?? null, "failed");
    await renew("2027-01-04");
    await decide((await charges(id))[2]?.page_url ?? null, "failed");
    expect((await rows(email))[0]?.status).toBe("suspended");
    const suspended = (await mails(email)).filter((m) => m.kind === "subscription-suspended");
    expect(suspended[0]?.text_body).toContain("Bezahlen Sie den offenen Monat selbst");
    expect(suspended[0]?.text_body).not.toContain("Kundenservice");
    const link = await payLink(email, "subscription-suspended", "de");
    // The failed mail's older link pays the same month.
    const older = await payLink(email, "subscription-charge-failed", "de");
    expect(older).not.toBe(link);

    const other = await shopper(sub.shop.app, "/");
    const page = textOf((await other.get(link)).body);
    expect(page).toContain("Bezahlen Sie den offenen Monat Ihres Foto-Abos Premium");
    expect(page).toContain("Pausiert");
    expect(page).toContain("Montag, 28. Dezember 2026 bis Mittwoch, 27. Januar 2027");

    const first = await other.post(link, {});
    await decide(String(first.headers.location), "failed");
    expect((await rows(email))[0]?.status).toBe("suspended");
    const failedPage = await other.get(link);
    expect(textOf(failedPage.body)).toContain("Ihre Zahlung ist fehlgeschlagen");
    expect(failedPage.body).toContain("Jetzt bezahlen</button>");

    const second = await other.post(older, {});
    expect(second.headers.location).not.toBe(first.headers.location);
    await decide(String(second.headers.location), "paid");
    expect((await rows(email))[0]).toMatchObject({ status: "active", paid_until: "2027-01-27" });
    expect((await byHand(id)).map((p) => [p.attempt, p.status])).toEqual([
      [1, "failed"],
      [2, "paid"],
    ]);
    expect((await mails(email)).filter((m) => m.kind === "subscription-paid-by-hand")).toHaveLength(1);
    expect(textOf((await other.get(link)).body)).toContain("Dieser Monat ist bezahlt.");
  });

  it("a wrong or expired link shows the same page for every address and starts nothing", async () => {
    const { database } = await open();
    const { charges: job } = instance(database);
    const email = "by-hand-old@example.test";
    const { id } = await subscribe("nl", email);
    await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "failed");
    const link = await payLink(email, "subscription-charge-failed", "nl");
    const other = await shopper(sub.shop.app, "/");

    const wrong = await other.get(`/abonnement/betalen/${"x".repeat(43)}`);
    expect(wrong.statusCode).toBe(404);
    expect(textOf(wrong.body)).toContain("Deze betaallink werkt niet (meer)");
    expect((await other.get("/abonnement/betalen/kort")).statusCode).toBe(404);
    expect((await other.post(`/abonnement/betalen/${"x".repeat(43)}`, {})).statusCode).toBe(404);

    // Mailed more than 60 days before the shop's today.
    await database.db
      .updateTable("subscription_charges")
      .set({ failure_mailed_at: "2026-09-01T10:00:00.000Z" })
      .where("subscription_id", "=", id)
      .execute();
    const expired = await other.get(link);
    expect(expired.statusCode).toBe(410);
    expect(textOf(expired.body)).toContain("ouder dan 60 dagen");
    expect((await other.post(link, {})).statusCode).toBe(410);
    expect(await byHand(id)).toHaveLength(0);
    expect((await rows(email))[0]?.status).toBe("past_due");
  });

  it("a post from another site is refused (Fetch Metadata)", async () => {
    const { database } = await open();
    const { charges: job } = instance(database);
    const email = "by-hand-csrf@example.test";
    const { id } = await subscribe("nl", email);
    await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "failed");
    const link = await payLink(email, "subscription-charge-failed", "nl");
    const forged = await sub.shop.app.inject({
      method: "POST",
      url: link,
      headers: { "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });
    expect(forged.statusCode).toBe(403);
    expect(await byHand(id)).toHaveLength(0);
  });
});
