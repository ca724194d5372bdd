import { describe, expect, it } from "vitest";
import { runRenewals } from "../../server/jobs/subscription-renewal.ts";
import { contractPaths, sendContractRequest } from "../support/contract-forms.ts";
import { testDatabases } from "../support/databases.ts";
import { shopper, textOf } from "../support/shopper.ts";
import { silent, subscriptionShop } from "../support/subscription-shop.ts";
import { signupLinkPath } from "../support/subscriptions.ts";

/**
 * Cancelling and withdrawing from the photo subscription with the public forms, without
 * signing in: JavaScript off (plain posts and redirects), the same page for every address,
 * the mail to the address typed, and the mailed link that makes it take effect once.
 */
const ordinary = { name: "Anna de Vries", contract: "address", notice: "ordinary" };

describe.each(testDatabases())("the cancellation and withdrawal forms on $name", (target) => {
  const sub = subscriptionShop(target);
  const { open, instance, subscribe, mails, setClock } = sub;
  /** The renewal job as the command builds it, on the shop's database and test provider. */
  const renewalJob = () => ({ database: sub.shop.database, ...instance(sub.shop.database) });

  const subscription = (id: string) =>
    sub.shop.database.db
      .selectFrom("subscriptions")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("refuses a form with mistakes, localized, with every value kept; nothing is stored or mailed", async () => {
    const { app, database } = await open();
    for (const [lang, message] of [
      ["nl", "Vul de reden van je buitengewone opzegging in."],
      ["de", "Geben Sie den Grund Ihrer außerordentlichen Kündigung an."],
    ] as const) {
      const s = await shopper(app, contractPaths.cancel[lang].form);
      const res = await s.post(contractPaths.cancel[lang].form, {
        name: "Jürgen Groß",
        email: "juergen@example.test",
        contract: "number",
        subscriptionNumber: "",
        notice: "extraordinary",
        reason: "",
        endOn: "31-02-2027",
      });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain(`<html lang="${lang}"`);
      expect(textOf(res.body)).toContain(message);
      expect(res.body).toContain('value="Jürgen Groß"');
      expect(res.body).toContain('value="juergen@example.test"');
      expect(res.body).toMatch(/<option value="number" selected>/);
      expect(res.body).toMatch(/<option value="extraordinary" selected>/);
      expect(res.body).toContain('value="31-02-2027"');
      // No draft: the check page sends the browser back to the form.
      expect((await s.get(contractPaths.cancel[lang].check)).headers.location).toBe(
        contractPaths.cancel[lang].form,
      );
    }
    const withdraw = await shopper(app, "/herroepen");
    const res = await withdraw.post("/herroepen", {
      name: "",
      email: "anna@example.test",
      contract: "address",
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('value="anna@example.test"');
    expect(await database.db.selectFrom("contract_requests").selectAll().execute()).toEqual([]);
    expect(await database.db.selectFrom("outbox").selectAll().execute()).toEqual([]);
  });

  it("answers a known and an unknown address with the same page; only the mail tells them apart", async () => {
    const opened = await open();
    (await subscribe("nl", "known@example.test")).row;
    setClock("2026-12-02T09:15:00Z");
    const pageFor = async (email: string) => {
      const s = await shopper(opened.app, "/opzeggen");
      const res = await sendContractRequest(s, "cancel", "nl", { ...ordinary, email });
      expect(res.statusCode).toBe(200);
      return textOf(res.body).replaceAll(email, "ADDRESS");
    };
    const known = await pageFor("known@example.test");
    const unknown = await pageFor("nobody@example.test");
    expect(known).toBe(unknown);
    expect(known).toContain("We hebben je opzegging ontvangen op woensdag 2 december 2026 om 10:15.");

    const [received] = (await mails("known@example.test")).filter(
      (m) => m.kind === "contract-cancel-received",
    );
    expect(received?.text_body).toContain(`${sub.origin}/opzeggen/bevestigen/`);
    const [none] = await mails("nobody@example.test");
    expect(none?.kind).toBe("contract-cancel-received");
    expect(none?.text_body).toContain("geen lopend fotoabonnement gevonden");
    expect(none?.text_body).not.toContain("/opzeggen/bevestigen/");
    // Both received and kept; the known one with its account, whose deletion takes it along.
    const requests = await opened.database.db
      .selectFrom("contract_requests")
      .select(["email", "account_id", "subscription_id", "token_hash", "received_at"])
      .orderBy("email")
      .execute();
    expect(
      requests.map((r) => [
        r.email,
        Boolean(r.account_id),
        Boolean(r.subscription_id),
        Boolean(r.token_hash),
      ]),
    ).toEqual([
      ["known@example.test", true, true, true],
      ["nobody@example.test", false, false, false],
    ]);
    expect(requests.map((r) => r.received_at)).toEqual([
      "2026-12-02T09:15:00.000Z",
      "2026-12-02T09:15:00.000Z",
    ]);
  });

  it("mails the receipt (nl) with its time and end date; the link ends it once, and the renewal after it charges nothing", async () => {
    const opened = await open();
    const row = (await subscribe("nl", "anna@example.test")).row;
    setClock("2026-12-02T09:15:00Z");
    const s = await shopper(opened.app, "/opzeggen");
    await sendContractRequest(s, "cancel", "nl", { ...ordinary, email: "anna@example.test" });

    const receipt = (await mails("anna@example.test")).find((m) => m.kind === "contract-cancel-received");
    expect(receipt?.subject).toBe("We hebben je opzegging ontvangen");
    expect(receipt?.text_body).toContain(
      "Op woensdag 2 december 2026 om 10:15 hebben we deze opzegging ontvangen:",
    );
    expect(receipt?.text_body).toContain("Soort opzegging: Gewone opzegging");
    expect(receipt?.text_body).toContain(`abonnement ${row.id}`);
    expect(receipt?.text_body).toContain("Je abonnement eindigt dan op zondag 27 december 2026");
    // Received is not yet in effect: the address is proven by the link.
    expect((await subscription(row.id)).status).toBe("active");

    const link = (await signupLinkPath(
      opened.database.db,
      "anna@example.test",
      "contract-cancel-received",
    )) as string;
    setClock("2026-12-04T18:00:00Z");
    const reader = await shopper(opened.app, link);
    // Opening the link (as a mail scanner does) changes nothing.
    expect((await subscription(row.id)).status).toBe("active");
    const used = await reader.post(link, {});
    expect(used.statusCode).toBe(303);
    expect(textOf((await reader.get(link)).body)).toContain(
      "Je opzegging is rond. Je fotoabonnement eindigt op zondag 27 december 2026",
    );
    expect(await subscription(row.id)).toMatchObject({ status: "cancelling", ends_on: "2026-12-27" });
    // Again, from another browser too: nothing doubles.
    await reader.post(link, {});
    const other = await shopper(opened.app, link);
    await other.post(link, {});
    const cancelled = (await mails("anna@example.test")).filter((m) => m.kind === "subscription-cancelled");
    expect(cancelled).toHaveLength(1);
    // The date of receipt stays the button's, not the link's.
    expect(cancelled[0]?.text_body).toContain(
      "We ontvingen je opzegging op woensdag 2 december 2026 om 10:15.",
    );
    expect(cancelled[0]?.text_body).toContain("Je abonnement eindigt op zondag 27 december 2026.");
    const notices = await opened.database.db
      .selectFrom("subscription_transitions")
      .select("event")
      .where("subscription_id", "=", row.id)
      .where("event", "=", "notice_given")
      .execute();
    expect(notices).toHaveLength(1);

    const { database, charges } = renewalJob();
    expect(await runRenewals({ database, charges, log: silent }, "2026-12-28")).toMatchObject({
      counts: { charged: 0, ended: 1 },
    });
    expect((await subscription(row.id)).status).toBe("cancelled");
    expect(
      await database.db
        .selectFrom("subscription_charges")
        .selectAll()
        .where("subscription_id", "=", row.id)
        .execute(),
    ).toEqual([]);
  });

  it("a notice sent before a renewal and confirmed after it: that charge is paid back and it ends at once", async () => {
    const opened = await open();
    const row = (await subscribe("nl", "late-link@example.test")).row;
    // The paid period's last day: the notice arrives in time for it.
    setClock("2026-12-27T10:00:00Z");
    await sendContractRequest(await shopper(opened.app, "/opzeggen"), "cancel", "nl", {
      ...ordinary,
      email: "late-link@example.test",
    });
    const { database, charges, provider } = renewalJob();
    expect(await runRenewals({ database, charges, log: silent }, "2026-12-28")).toMatchObject({
      counts: { charged: 1 },
    });
    const [charge] = await database.db
      .selectFrom("subscription_charges")
      .selectAll()
      .where("subscription_id", "=", row.id)
      .execute();
    const testPage = new URL(String(charge?.page_url), sub.origin).pathname;
    const tester = await shopper(opened.app, testPage);
    expect((await tester.post(testPage, { outcome: "paid" })).statusCode).toBe(303);
    expect(await subscription(row.id)).toMatchObject({ status: "active", paid_until: "2027-01-27" });

    setClock("2026-12-29T09:00:00Z");
    const link = (await signupLinkPath(
      database.db,
      "late-link@example.test",
      "contract-cancel-received",
    )) as string;
    const reader = await shopper(opened.app, link);
    await reader.post(link, {});
    await reader.post(link, {});
    expect(textOf((await reader.get(link)).body)).toContain("we betalen € 4,99 terug");
    expect(await subscription(row.id)).toMatchObject({ status: "cancelled", ends_on: "2026-12-29" });
    expect(await provider.refundsOf(String(charge?.payment_id))).toEqual([
      { id: expect.any(String), amountCents: 499 },
    ]);
    const cancelled = (await mails("late-link@example.test")).filter(
      (m) => m.kind === "subscription-cancelled",
    );
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]?.text_body).toMatch(/we betalen €\s4,99 terug/);
    expect(cancelled[0]?.text_body).toContain("zondag 27 december 2026 om 11:00");
    expect(await runRenewals({ database, charges, log: silent }, "2027-01-28")).toMatchObject({
      counts: { charged: 0 },
    });
  });

  it("a notice sent before a renewal that failed and was paid by hand: that payment is paid back too", async () => {
    const opened = await open();
    const email = "late-link-by-hand@example.test";
    const row = (await subscribe("nl", email)).row;
    setClock("2026-12-27T10:00:00Z");
    await sendContractRequest(await shopper(opened.app, "/opzeggen"), "cancel", "nl", { ...ordinary, email });
    const { database, charges } = renewalJob();
    await runRenewals({ database, charges, log: silent }, "2026-12-28");
    await sub.decide((await sub.charges(row.id))[0]?.page_url ?? null, "failed");
    // The shopper pays the failed month from the mail's link before using the notice's link.
    const payLink = await sub.payLink(email, "subscription-charge-failed", "nl");
    const payer = await shopper(opened.app, payLink);
    await sub.decide(String((await payer.post(payLink, {})).headers.location), "paid");
    const [paid] = await sub.byHand(row.id);
    expect(paid).toMatchObject({ status: "paid", period_start: "2026-12-28" });

    setClock("2026-12-29T09:00:00Z");
    const link = (await signupLinkPath(database.db, email, "contract-cancel-received")) as string;
    const reader = await shopper(opened.app, link);
    await reader.post(link, {});
    expect(textOf((await reader.get(link)).body)).toContain("we betalen € 4,99 terug");
    expect(await subscription(row.id)).toMatchObject({ status: "cancelled", ends_on: "2026-12-29" });
    const refunds = await database.db.selectFrom("test_refunds").selectAll().execute();
    expect(refunds.map((r) => [r.payment_id, r.amount_cents])).toEqual([[paid?.payment_id, 499]]);
  });

  it("mails the receipt and the confirmation in German, for an extraordinary notice with customer service told", async () => {
    const opened = await open();
    const row = (await subscribe("de", "juergen@example.test")).row;
    setClock("2026-12-02T09:15:00Z");
    const s = await shopper(opened.app, "/kuendigen");
    const page = await sendContractRequest(s, "cancel", "de", {
      name: "Jürgen Groß",
      email: "juergen@example.test",
      contract: "number",
      subscriptionNumber: row.id,
      notice: "extraordinary",
      reason: "Umzug ins Ausland",
      endOn: "2026-12-10",
    });
    expect(textOf(page.body)).toContain(
      "Ihre Kündigung ist am Mittwoch, 2. Dezember 2026 um 10:15 bei uns eingegangen.",
    );
    expect(textOf(page.body)).toContain("Kündigungsgrund Umzug ins Ausland");
    const receipt = (await mails("juergen@example.test")).find((m) => m.kind === "contract-cancel-received");
    expect(receipt?.locale).toBe("de");
    expect(receipt?.text_body).toContain(
      "am Mittwoch, 2. Dezember 2026 um 10:15 ist diese Kündigung bei uns eingegangen:",
    );
    expect(receipt?.text_body).toContain(
      "Art der Kündigung: Außerordentliche Kündigung (aus wichtigem Grund)",
    );
    expect(receipt?.text_body).toContain("Beendigung: Donnerstag, 10. Dezember 2026");
    expect(receipt?.text_body).toContain("Ihr Abo endet dann am Sonntag, 27. Dezember 2026");

    const link = (await signupLinkPath(
      opened.database.db,
      "juergen@example.test",
      "contract-cancel-received",
    )) as string;
    expect(link).toMatch(/^\/kuendigen\/bestaetigen\//);
    const reader = await shopper(opened.app, link);
    expect((await reader.post(link, {})).statusCode).toBe(303);
    const [cancelled] = (await mails("juergen@example.test")).filter(
      (m) => m.kind === "subscription-cancelled",
    );
    expect(cancelled?.subject).toBe("Ihr Foto-Abo Premium ist gekündigt");
    expect(cancelled?.text_body).toContain("Ihr Abo endet am Sonntag, 27. Dezember 2026.");
    expect(cancelled?.text_body).toContain(
      "Sie haben außerordentlich zum Donnerstag, 10. Dezember 2026 gekündigt.",
    );
    const support = await mails(opened.config.supportEmail);
    expect(support.map((m) => m.kind)).toEqual(["contract-extraordinary-notice"]);
    expect(support[0]?.text_body).toContain("Umzug ins Ausland");
  });

  it("names no subscription of another address, even with its number", async () => {
    const opened = await open();
    const row = (await subscribe("nl", "owner@example.test")).row;
    const s = await shopper(opened.app, "/opzeggen");
    await sendContractRequest(s, "cancel", "nl", {
      ...ordinary,
      email: "stranger@example.test",
      contract: "number",
      subscriptionNumber: row.id,
    });
    const [mail] = await mails("stranger@example.test");
    expect(mail?.text_body).toContain(`geen lopend fotoabonnement met nummer ${row.id} gevonden`);
    expect(mail?.text_body).not.toContain("Premium");
    expect(mail?.text_body).not.toContain("/opzeggen/bevestigen/");
    expect((await subscription(row.id)).status).toBe("active");
  });

  it("a link older than 7 days no longer works; an unknown one leads nowhere", async () => {
    const opened = await open();
    const row = (await subscribe("nl", "slow@example.test")).row;
    setClock("2026-12-02T09:15:00Z");
    await sendContractRequest(await shopper(opened.app, "/opzeggen"), "cancel", "nl", {
      ...ordinary,
      email: "slow@example.test",
    });
    const link = (await signupLinkPath(
      opened.database.db,
      "slow@example.test",
      "contract-cancel-received",
    )) as string;
    setClock("2026-12-09T09:16:00Z");
    // A browser with a form token of the shop's (the link's page has no form any more).
    const reader = await shopper(opened.app, "/opzeggen");
    expect((await reader.get(link)).statusCode).toBe(410);
    expect((await reader.post(link, {})).statusCode).toBe(410);
    expect((await subscription(row.id)).status).toBe("active");
    const unknown = await reader.get(`/opzeggen/bevestigen/${"x".repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
  });

  it("answers 429 with a localized page and everything kept: per client, and per address", async () => {
    const opened = await open({ SIGNUP_RATE_LIMIT: "2" });
    const s = await shopper(opened.app, "/kuendigen");
    for (const email of ["a@example.test", "b@example.test"])
      await sendContractRequest(s, "cancel", "de", { ...ordinary, email });
    await s.post("/kuendigen", { ...ordinary, email: "c@example.test" });
    const refused = await s.post("/kuendigen/pruefen", {});
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.body).toContain('<html lang="de"');
    expect(textOf(refused.body)).toContain("Es wurden kurz hintereinander viele Anfragen gesendet");
    expect(textOf(refused.body)).toContain("c@example.test");
    expect(await mails("c@example.test")).toEqual([]);
    await sub.close();

    // One address: five an hour, from any number of clients.
    const many = await open();
    for (let i = 0; i < 5; i++)
      await sendContractRequest(await shopper(many.app, "/opzeggen"), "cancel", "nl", {
        ...ordinary,
        email: "flood@example.test",
      });
    const other = await shopper(many.app, "/opzeggen");
    await other.post("/opzeggen", { ...ordinary, email: "Flood@Example.test" });
    const sixth = await other.post("/opzeggen/controleren", {});
    expect(sixth.statusCode).toBe(429);
    expect(textOf(sixth.body)).toContain("Er zijn kort na elkaar veel verzoeken verstuurd");
    expect(await mails("flood@example.test")).toHaveLength(5);
  });

  it("withdraws within 14 days with a refund through the provider, once; after them the mail says the period ended", async () => {
    const opened = await open();
    const early = (await subscribe("nl", "early@example.test")).row;
    const late = (await subscribe("nl", "late@example.test")).row;

    // 12 December: the 14th day after 28 November, the last one to withdraw on.
    setClock("2026-12-12T20:00:00Z");
    await sendContractRequest(await shopper(opened.app, "/herroepen"), "withdraw", "nl", {
      name: "Anna de Vries",
      email: "early@example.test",
      contract: "address",
    });
    const link = (await signupLinkPath(
      opened.database.db,
      "early@example.test",
      "contract-withdraw-received",
    )) as string;
    // Used the next day, after the 14 days: what counts is when the withdrawal arrived.
    setClock("2026-12-13T08:00:00Z");
    const reader = await shopper(opened.app, link);
    expect((await reader.post(link, {})).statusCode).toBe(303);
    expect(textOf((await reader.get(link)).body)).toContain(
      "Je fotoabonnement is herroepen en beëindigd. We betalen € 2,49 terug",
    );
    await reader.post(link, {});
    expect(await subscription(early.id)).toMatchObject({ status: "withdrawn", ends_on: "2026-12-12" });
    const refunds = await opened.database.db.selectFrom("test_refunds").selectAll().execute();
    expect(refunds.map((r) => r.amount_cents)).toEqual([249]);
    const withdrawn = (await mails("early@example.test")).filter((m) => m.kind === "subscription-withdrawn");
    expect(withdrawn).toHaveLength(1);
    expect(withdrawn[0]?.text_body).toContain("2,49");

    await sendContractRequest(await shopper(opened.app, "/herroepen"), "withdraw", "nl", {
      name: "Anna de Vries",
      email: "late@example.test",
      contract: "address",
    });
    const [tooLate] = (await mails("late@example.test")).filter(
      (m) => m.kind === "contract-withdraw-received",
    );
    expect(tooLate?.text_body).toContain("liep tot en met zaterdag 12 december 2026");
    expect(tooLate?.text_body).toContain(`${sub.origin}/opzeggen`);
    expect(tooLate?.text_body).not.toContain("/herroepen/bevestigen/");
    expect((await subscription(late.id)).status).toBe("active");
    expect(await opened.database.db.selectFrom("test_refunds").selectAll().execute()).toHaveLength(1);
  });
});
