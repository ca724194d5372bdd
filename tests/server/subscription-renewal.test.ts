import { describe, expect, it } from "vitest";
import { runRenewals } from "../../server/jobs/subscription-renewal.ts";
import { withdrawSubscription } from "../../server/payments/subscription-withdrawal.ts";
import { accountPaths, signIn } from "../support/accounts.ts";
import { testDatabases } from "../support/databases.ts";
import { textOf } from "../support/shopper.ts";
import { password, silent, subscriptionShop } from "../support/subscription-shop.ts";

/**
 * The subscription month after month: the first payment (through the shop's pages and the
 * test provider) makes a mandate; the renewal job charges each next period on it; the
 * tester decides each charge on its test page, whose webhook reaches the listening shop.
 */
describe.each(testDatabases())("renewing subscriptions on $name", (target) => {
  const sub = subscriptionShop(target);
  const { open, instance, subscribe, decide, rows, mails, charges } = sub;

  it("charges each next period on the mandate once, at the offer's price, and mails the invoice", async () => {
    const { database } = await open();
    const { charges: job } = instance(database);
    const email = "renew@example.test";
    const { id, s, row } = await subscribe("nl", email);
    expect(row).toMatchObject({
      paid_from: "2026-11-28",
      paid_until: "2026-12-27",
      started_on: "2026-11-28",
    });
    // The first month's welcome is its invoice, numbered as the renewals' are.
    const welcome = (await mails(email)).find((m) => m.kind === "subscription-welcome");
    const firstInvoice = `FH-A-${id.slice(0, 8).toUpperCase()}-20261128`;
    expect(welcome?.subject).toBe(`Je fotoabonnement Premium is actief: factuur ${firstInvoice}`);
    expect(welcome?.text_body).toContain(
      `Factuur ${firstInvoice}\nFactuurdatum: zaterdag 28 november 2026\n`,
    );
    expect(welcome?.text_body).toContain("Periode: zaterdag 28 november 2026 t/m zondag 27 december 2026\n");
    expect(welcome?.text_body).toMatch(/Btw 21%: €\s0,87\nTotaal: €\s4,99\nBetaling: tp_/);

    // Not due yet on the last paid day.
    expect(await runRenewals({ database, charges: job, log: silent }, "2026-12-27")).toMatchObject({
      counts: { charged: 0 },
    });
    const first = await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    const again = await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    expect(first).toMatchObject({ ran: true, counts: { charged: 1 } });
    expect(again).toMatchObject({ ran: true, counts: { charged: 0 } });
    const [charge] = await charges(id);
    expect(await charges(id)).toHaveLength(1);
    expect(charge).toMatchObject({
      period_start: "2026-12-28",
      period_end: "2027-01-27",
      attempt: 1,
      amount_cents: 499,
      status: "open",
    });
    expect(charge?.page_url).toMatch(new RegExp(`^${sub.origin}/testbetaling/tp_`));
    // Charged without the shopper: no new mail until it is decided.
    expect((await mails(email)).map((m) => m.kind)).toEqual(["subscription-confirm", "subscription-welcome"]);

    await decide(charge?.page_url ?? null, "paid");
    const [renewed] = await rows(email);
    expect(renewed).toMatchObject({ status: "active", paid_from: "2026-12-28", paid_until: "2027-01-27" });
    const page = textOf((await s.get(`/abonnement/status/${id}`)).body);
    expect(page).toContain("Betaald tot en met woensdag 27 januari 2027.");
    // Premium's third month is the offer's last: still € 4,99.
    expect(page).toMatch(/Volgende afschrijving: donderdag 28 januari 2027, €\s4,99\./);
    expect(page).toContain("Je abonnement loopt elke maand vanzelf door");
    const invoice = (await mails(email)).filter((m) => m.kind === "subscription-renewed");
    expect(invoice).toHaveLength(1);
    expect(invoice[0]?.subject).toMatch(
      /^Je fotoabonnement Premium loopt door: factuur FH-A-[0-9A-Z_-]{8}-20261228$/,
    );
    expect(invoice[0]?.text_body).toContain("4,99");
    expect(invoice[0]?.text_body).toContain("21%");
    expect(invoice[0]?.text_body).toContain("0,87");
    expect(invoice[0]?.text_body).toContain("maandag 28 december 2026 t/m woensdag 27 januari 2027");
    // The webhook again, or the job asking again, changes nothing and mails nothing.
    await runRenewals({ database, charges: job, log: silent }, "2027-01-27");
    expect((await mails(email)).filter((m) => m.kind === "subscription-renewed")).toHaveLength(1);
    expect(await charges(id)).toHaveLength(1);
  });

  it("the invoice's VAT is that of the country the subscriber lives in, not of the language they signed up in", async () => {
    const { database } = await open();
    const { charges: job } = instance(database);
    // A German speaker living in the Netherlands, and a Dutch speaker living in Germany.
    const german = await subscribe("de", "woont-in-nl@example.test", "premium", "NL");
    const dutch = await subscribe("nl", "woont-in-de@example.test", "premium", "DE");
    expect([german.row.country, dutch.row.country]).toEqual(["NL", "DE"]);
    await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    for (const { id } of [german, dutch]) await decide((await charges(id))[0]?.page_url ?? null, "paid");

    const invoiceOf = async (email: string) =>
      (await mails(email)).find((m) => m.kind === "subscription-renewed")?.text_body ?? "";
    // € 4,99 with 21% in it: € 0,87; with 19%: € 0,80 (€ 4,19 without).
    expect(await invoiceOf("woont-in-nl@example.test")).toMatch(
      /Betrag ohne MwSt\.: 4,12\s€\nMwSt\. 21 %: 0,87\s€\nGesamtbetrag: 4,99\s€\n/,
    );
    // Addressed as every German mail of the shop is, in the formal register.
    expect(await invoiceOf("woont-in-nl@example.test")).toMatch(
      /^Guten Tag [^,\n]+,\n\nIhr Foto-Abo Premium/,
    );
    expect(await invoiceOf("woont-in-de@example.test")).toMatch(
      /Bedrag zonder btw: €\s4,19\nBtw 19%: €\s0,80\nTotaal: €\s4,99\n/,
    );
    // The account's subscription page says which country that is.
    const page = async (email: string, path: string) =>
      textOf((await (await signIn(sub.shop.app, email)).browser.get(path)).body);
    expect(await page("woont-in-nl@example.test", accountPaths.de.subscription)).toContain(
      "Land, in dem Sie wohnen Niederlande (21 % MwSt.)",
    );
    expect(await page("woont-in-de@example.test", accountPaths.nl.subscription)).toContain(
      "Land waar je woont Duitsland (19% btw)",
    );
  });

  it("a subscriber who moved says so on the account page, and the next invoice takes that country's VAT", async () => {
    const { database } = await open();
    const { charges: job } = instance(database);
    const email = "verhuisd@example.test";
    const { id } = await subscribe("nl", email);
    const { browser } = await signIn(sub.shop.app, email);
    const country = "/account/abonnement/woonland";

    // A country the shop does not serve: the form comes back open, with its message.
    const refused = await browser.form(country, { country: "BE" });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/<details class="account-country" open>/);
    expect(textOf(refused.body)).toContain("Kies een van de mogelijkheden.");
    expect((await rows(email))[0]?.country).toBe("NL");

    const moved = await browser.form(country, { country: "DE" });
    expect(moved.statusCode).toBe(303);
    const page = textOf((await browser.follow(moved)).body);
    expect(page).toContain("Je woonland is opgeslagen: Duitsland. Je volgende facturen rekenen met 19% btw.");
    expect(page).toContain("Land waar je woont Duitsland (19% btw)");
    expect((await rows(email))[0]?.country).toBe("DE");

    await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "paid");
    const invoice = (await mails(email)).find((m) => m.kind === "subscription-renewed")?.text_body ?? "";
    expect(invoice).toMatch(/Bedrag zonder btw: €\s4,19\nBtw 19%: €\s0,80\nTotaal: €\s4,99\n/);
  });

  it("a failed charge makes it past due and mails a link; retries after 3 and 7 days; the last suspends", async () => {
    const { database } = await open();
    const { charges: job } = instance(database);
    const email = "past-due@example.test";
    const { id, s } = await subscribe("de", email);
    const renew = (day: string) => runRenewals({ database, charges: job, log: silent }, day);

    await renew("2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "failed");
    expect((await rows(email))[0]?.status).toBe("past_due");
    // Its page says where it stands, not that the first month's payment arrived.
    const page = textOf((await s.get(`/abo/status/${id}`)).body);
    expect(page).toContain("Zahlung fehlgeschlagen: wir versuchen es erneut");
    expect(page).toContain("Die Abbuchung Ihres Monatsbetrags ist fehlgeschlagen.");
    expect(page).not.toContain("Ihre Zahlung ist eingegangen");
    const failed = (await mails(email)).filter((m) => m.kind === "subscription-charge-failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]?.locale).toBe("de");
    // The link pays the month by hand (ADR 0106), without signing in.
    expect(failed[0]?.text_body).toMatch(new RegExp(`${sub.origin}/abo/bezahlen/[\\w-]{43}\\n`));
    expect(failed[0]?.text_body).toContain("Donnerstag, 31. Dezember 2026");

    expect(await renew("2026-12-30")).toMatchObject({ counts: { charged: 0 } });
    expect(await renew("2026-12-31")).toMatchObject({ counts: { charged: 1 } });
    await decide((await charges(id))[1]?.page_url ?? null, "failed");
    expect((await rows(email))[0]?.status).toBe("past_due");
    expect(await renew("2027-01-03")).toMatchObject({ counts: { charged: 0 } });
    expect(await renew("2027-01-04")).toMatchObject({ counts: { charged: 1 } });
    await decide((await charges(id))[2]?.page_url ?? null, "failed");

    expect((await rows(email))[0]?.status).toBe("suspended");
    expect((await charges(id)).map((c) => [c.attempt, c.due_on, c.status])).toEqual([
      [1, "2026-12-28", "failed"],
      [2, "2026-12-31", "failed"],
      [3, "2027-01-04", "failed"],
    ]);
    const kinds = (await mails(email)).map((m) => m.kind);
    expect(kinds.filter((k) => k === "subscription-charge-failed")).toHaveLength(2);
    expect(kinds.filter((k) => k === "subscription-suspended")).toHaveLength(1);
    // Suspended: nothing more is charged by itself.
    expect(await renew("2027-02-20")).toMatchObject({ counts: { charged: 0 } });
  });

  it("under notice it runs to the paid period's end; the renewal after it ends it and charges nothing", async () => {
    const { database } = await open();
    const { charges: job, deps } = instance(database);
    const email = "notice@example.test";
    const { id } = await subscribe("nl", email);
    await deps.subscriptions.applyEvent(id, { type: "notice_given" }, new Date("2026-12-01T09:00:00Z"));
    expect((await rows(email))[0]).toMatchObject({ status: "cancelling", ends_on: "2026-12-27" });

    expect(await runRenewals({ database, charges: job, log: silent }, "2026-12-27")).toMatchObject({
      counts: { charged: 0, ended: 0 },
    });
    expect(await runRenewals({ database, charges: job, log: silent }, "2026-12-28")).toMatchObject({
      counts: { charged: 0, ended: 1 },
    });
    const [row] = await rows(email);
    expect(row?.status).toBe("cancelled");
    expect(await charges(id)).toEqual([]);
    const mandate = await database.db
      .selectFrom("test_mandates")
      .select("status")
      .where("id", "=", String(row?.mandate_id))
      .executeTakeFirstOrThrow();
    expect(mandate.status).toBe("revoked");
    expect(await runRenewals({ database, charges: job, log: silent }, "2027-03-01")).toMatchObject({
      counts: { charged: 0 },
    });
  });

  it("a mandate the provider no longer honours: each try fails, mails its amount, and the third suspends", async () => {
    const { database } = await open();
    const { charges: job, provider } = instance(database);
    const email = "revoked@example.test";
    const { id } = await subscribe("nl", email);
    const [row] = await rows(email);
    await provider.revokeMandate({
      customerId: String(row?.customer_id),
      mandateId: String(row?.mandate_id),
    });

    for (const day of ["2026-12-28", "2026-12-31", "2027-01-04"])
      await runRenewals({ database, charges: job, log: silent }, day);

    expect((await charges(id)).map((c) => [c.attempt, c.status, c.payment_id])).toEqual([
      [1, "failed", null],
      [2, "failed", null],
      [3, "failed", null],
    ]);
    expect((await rows(email))[0]?.status).toBe("suspended");
    const failed = (await mails(email)).filter((m) => m.kind === "subscription-charge-failed");
    expect(failed).toHaveLength(2);
    expect(failed[0]?.text_body).toContain("4,99");
  });

  it("two instances renewing at once charge a period once", async () => {
    const { database } = await open();
    const email = "twice@example.test";
    const { id } = await subscribe("nl", email);
    const [a, b] = [instance(database), instance(database)];

    // Two jobs under the lock, and two renewals past it (as the command next to a running
    // shop on SQLite): the charge's claim alone must hold.
    const [jobA, jobB, ...unlocked] = await Promise.all([
      runRenewals({ database, charges: a.charges, log: silent }, "2026-12-28"),
      runRenewals({ database, charges: b.charges, log: silent }, "2026-12-28"),
      a.charges.renew("2026-12-28"),
      b.charges.renew("2026-12-28"),
    ]);
    const runs = [jobA, jobB].flatMap((run) => (run?.ran ? [run.counts] : [])).concat(unlocked);

    expect(await charges(id)).toHaveLength(1);
    const recurring = await database.db
      .selectFrom("test_payments")
      .select("id")
      .where("sequence_type", "=", "recurring")
      .execute();
    expect(recurring).toHaveLength(1);
    const charged = runs.reduce((sum, counts) => sum + counts.charged, 0);
    expect(charged).toBe(1);
  });

  it("a withdrawal within 14 days refunds the unused days through the provider; after them it is refused", async () => {
    const { database } = await open();
    const { deps, provider } = instance(database);
    const early = await subscribe("nl", "withdraw@example.test");
    const late = await subscribe("nl", "too-late@example.test");

    expect(await withdrawSubscription(deps, late.id, "2026-12-13")).toMatchObject({
      kind: "refused",
      deadline: "2026-12-12",
    });
    const result = await withdrawSubscription(deps, early.id, "2026-12-12");
    // Premium's first month: € 4,99 for 30 days (28 November to 27 December), 15 of them unused.
    expect(result).toEqual({
      kind: "withdrawn",
      refundCents: Math.floor((499 * 15) / 30),
      refundId: expect.any(String),
    });
    expect(await withdrawSubscription(deps, early.id, "2026-12-12")).toEqual({ kind: "already-withdrawn" });

    const [row] = await rows("withdraw@example.test");
    expect(row).toMatchObject({ status: "withdrawn", ends_on: "2026-12-12" });
    const paid = await database.db
      .selectFrom("subscription_payments")
      .select("payment_id")
      .where("subscription_id", "=", early.id)
      .executeTakeFirstOrThrow();
    expect(await provider.refundsOf(paid.payment_id)).toEqual([{ id: expect.any(String), amountCents: 249 }]);
    const mandate = await database.db
      .selectFrom("test_mandates")
      .select("status")
      .where("id", "=", String(row?.mandate_id))
      .executeTakeFirstOrThrow();
    expect(mandate.status).toBe("revoked");
    const withdrawn = (await mails("withdraw@example.test")).filter(
      (m) => m.kind === "subscription-withdrawn",
    );
    expect(withdrawn).toHaveLength(1);
    expect(withdrawn[0]?.text_body).toContain("2,49");
    expect((await rows("too-late@example.test"))[0]?.status).toBe("active");
  });

  it("mails 14 days ahead that the offer ends and what the next month costs, once, with the way to give notice", async () => {
    const { database } = await open();
    const { charges: job } = instance(database);
    const email = "offer-ends@example.test";
    const { id } = await subscribe("nl", email);
    const renew = (day: string) => runRenewals({ database, charges: job, log: silent }, day);
    const notices = async () => (await mails(email)).filter((m) => m.kind === "subscription-price-notice");

    // Premium's months 2 and 3 are still at the offer's price: no notice before them.
    await renew("2026-12-14");
    await renew("2026-12-28");
    await decide((await charges(id))[0]?.page_url ?? null, "paid");
    await renew("2027-01-28");
    await decide((await charges(id))[1]?.page_url ?? null, "paid");
    expect((await sub.rows(email))[0]?.paid_until).toBe("2027-02-27");
    expect(await notices()).toEqual([]);

    // Month 4, from 28 February, is the first at € 9,99: announced from 14 February on.
    expect(await renew("2027-02-13")).toMatchObject({ counts: { priceNotices: 0 } });
    expect(await renew("2027-02-14")).toMatchObject({ counts: { priceNotices: 1 } });
    expect(await renew("2027-02-14")).toMatchObject({ counts: { priceNotices: 0 } });
    expect(await renew("2027-02-20")).toMatchObject({ counts: { priceNotices: 0 } });
    const [notice] = await notices();
    expect(await notices()).toHaveLength(1);
    expect(notice?.subject).toMatch(
      /^Je fotoabonnement Premium: vanaf zondag 28 februari 2027 €\s9,99 per maand$/,
    );
    expect(notice?.text_body).toMatch(/\(€\s4,99 per maand\) loopt af/);
    expect(notice?.text_body).toMatch(/Vanaf zondag 28 februari 2027 schrijven we elke maand €\s9,99 af/);
    expect(notice?.text_body).toContain("uiterlijk op zaterdag 27 februari 2027 op");
    expect(notice?.text_body).toContain(`${sub.origin}/opzeggen\n`);

    // And then charged at that price, as announced.
    await renew("2027-02-28");
    expect((await charges(id))[2]).toMatchObject({ period_start: "2027-02-28", amount_cents: 999 });
  });

  it("a deleted account's subscription ends at once, its mandate is revoked and nothing more is charged", async () => {
    const { database } = await open();
    const { charges: job } = instance(database);
    const email = "leaving@example.test";
    const { id, row } = await subscribe("nl", email);
    const { browser } = await signIn(sub.shop.app, email);
    await browser.get(accountPaths.nl.delete);
    expect((await browser.form(accountPaths.nl.delete, { currentPassword: password })).statusCode).toBe(200);

    const [ended] = await database.db.selectFrom("subscriptions").selectAll().where("id", "=", id).execute();
    expect(ended).toMatchObject({ status: "cancelled", account_id: null });
    const mandate = await database.db
      .selectFrom("test_mandates")
      .select("status")
      .where("id", "=", String(row.mandate_id))
      .executeTakeFirst();
    expect(mandate?.status).toBe("revoked");
    expect(await runRenewals({ database, charges: job, log: silent }, "2026-12-28")).toMatchObject({
      counts: { charged: 0 },
    });
    expect(await charges(id)).toEqual([]);
  });
});
