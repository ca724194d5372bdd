import { describe, expect, it } from "vitest";
import { runRenewals } from "../../server/jobs/subscription-renewal.ts";
import { PaymentProviderUnavailable } from "../../server/payments/provider.ts";
import { withdrawSubscription } from "../../server/payments/subscription-withdrawal.ts";
import { signIn } from "../support/accounts.ts";
import { type BrowserSession, lookAsBrowser } from "../support/browser-session.ts";
import { testDatabases } from "../support/databases.ts";
import { textOf } from "../support/shopper.ts";
import { password, silent, subscriptionShop } from "../support/subscription-shop.ts";

/**
 * Choosing another plan on the account's subscription page (ADR 0108): an upgrade starts at
 * once and the rest of the paid period is charged on the mandate, pro rata; a downgrade
 * waits for the next period, which the renewal charges at the new plan's price.
 */
describe.each(testDatabases())("changing a subscription's plan on $name", (target) => {
  const sub = subscriptionShop(target);
  const { open, instance, subscribe, decide, rows, mails } = sub;

  const paths = {
    nl: { page: "/account/abonnement", change: "/account/abonnement/wijzigen" },
    de: { page: "/konto/abo", change: "/konto/abo/wechseln" },
  };

  /**
   * A subscriber of `plan` since 28 November 2026, signed in on a browser of their own on
   * `day` (the shop's clock stays there).
   */
  async function subscriber(email: string, plan: "plus" | "premium", lang: "nl" | "de" = "nl", day?: string) {
    const { database } = await open();
    const { id } = await subscribe(lang, email, plan);
    if (day) sub.setClock(`${day}T09:00:00Z`);
    const { browser } = await signIn(sub.shop.app, email, password, { lang });
    return { id, browser, database, lang };
  }

  const pageText = async (browser: BrowserSession, lang: "nl" | "de" = "nl") =>
    (await lookAsBrowser(browser, paths[lang].page)).text;
  const choose = (
    browser: BrowserSession,
    plan: string | undefined,
    shownOn: string,
    lang: "nl" | "de" = "nl",
  ) => browser.form(paths[lang].change, { ...(plan ? { plan } : {}), shownOn });
  const changes = (id: string) =>
    sub.shop.database.db
      .selectFrom("subscription_plan_changes")
      .selectAll()
      .where("subscription_id", "=", id)
      .orderBy("id")
      .execute();

  it("a downgrade waits for the next period, is mailed, can be taken back, and the renewal charges its price", async () => {
    const { id, browser, database } = await subscriber("down@example.test", "premium");
    const before = await pageText(browser);
    expect(before).toContain("Ander abonnement kiezen");
    // Premium's second month is still its offer; Plus's too.
    expect(before).toMatch(
      /Premium: je huidige abonnement, €\s4,99 per maand vanaf maandag 28 december 2026/,
    );
    expect(before).toMatch(/Plus: vanaf maandag 28 december 2026, €\s2,99 per maand/);
    expect(before).toMatch(/Basis: vanaf maandag 28 december 2026, €\s2,99 per maand/);

    const chosen = await choose(browser, "plus", "2026-11-28");
    expect(chosen.statusCode).toBe(303);
    const after = await pageText(browser);
    expect(after).toContain("Je abonnement wordt Plus vanaf maandag 28 december 2026.");
    expect(after).toMatch(
      /Vanaf maandag 28 december 2026 wordt je abonnement Plus, voor €\s2,99 per maand\./,
    );
    // Until then it is Premium, with Premium's prints.
    expect((await rows("down@example.test"))[0]).toMatchObject({ plan_id: "premium", monthly_cents: 999 });
    expect(after).toContain("Nog 50 van je 50 gratis afdrukken deze maand.");
    expect(after).toMatch(/Volgende afschrijving: maandag 28 december 2026, €\s2,99\./);
    const mail = (await mails("down@example.test")).find(
      (m) => m.kind === "subscription-downgrade-scheduled",
    );
    expect(mail?.subject).toBe("Je fotoabonnement wordt Plus vanaf maandag 28 december 2026");
    expect(mail?.text_body).toContain("Je houdt Premium tot en met zondag 27 december 2026.");
    expect(mail?.text_body).toMatch(/schrijven we €\s2,99 per maand af/);
    expect(mail?.text_body).toContain(`${sub.origin}/account/abonnement\n`);
    // The status page's next charge is the new plan's.
    const status = textOf((await browser.get(`/abonnement/status/${id}`)).body);
    expect(status).toMatch(/Volgende afschrijving: maandag 28 december 2026, €\s2,99\./);

    // Looked at again (no notice now), the page is as a fresh render makes it: a page kept
    // from before the choice must not come back.
    const again = await pageText(browser);
    expect(again).toMatch(
      /Vanaf maandag 28 december 2026 wordt je abonnement Plus, voor €\s2,99 per maand\./,
    );
    expect(again).toMatch(/Volgende afschrijving: maandag 28 december 2026, €\s2,99\./);

    // Taken back: Premium goes on, and nothing waits.
    await choose(browser, "premium", "2026-11-28");
    const kept = await pageText(browser);
    expect(kept).toContain("Je houdt Premium; de geplande wijziging gaat niet door.");
    expect(kept).not.toContain("wordt je abonnement Plus");
    expect(kept).toMatch(/Volgende afschrijving: maandag 28 december 2026, €\s4,99\./);
    expect(await pageText(browser)).not.toContain("wordt je abonnement Plus");
    expect((await changes(id)).map((c) => c.status)).toEqual(["dropped"]);

    // Down to Basis, then the renewal: the new period is Basis's, at Basis's price.
    await choose(browser, "basis", "2026-11-28");
    const { charges: job } = instance(database);
    await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    const [charge] = await sub.charges(id);
    expect(charge).toMatchObject({ period_start: "2026-12-28", amount_cents: 299 });
    expect((await rows("down@example.test"))[0]).toMatchObject({
      plan_id: "basis",
      monthly_cents: 299,
      offer_cents: null,
    });
    expect((await changes(id)).map((c) => c.status)).toEqual(["dropped", "applied"]);
    await decide(charge?.page_url ?? null, "paid");
    const renewed = (await mails("down@example.test")).find((m) => m.kind === "subscription-renewed");
    expect(renewed?.subject).toMatch(/^Je fotoabonnement Basis loopt door/);
    // Basis has no free prints.
    expect(await pageText(browser)).not.toContain("gratis afdrukken deze maand");
  });

  it("an upgrade starts at once, charges the rest of the period pro rata on the mandate, and mails the invoice once paid", async () => {
    // Day 16 of the 30 from 28 November: 15 days left, today included.
    const { id, browser, database } = await subscriber("up@example.test", "plus", "nl", "2026-12-13");
    const before = await pageText(browser);
    // Month 1: Premium's offer € 4,99 against Plus's € 2,99, for 15 of 30 days: € 1,00.
    expect(before).toMatch(
      /Premium: meteen, nu €\s1,00 voor de rest van de periode \(t\/m zondag 27 december 2026\), daarna €\s4,99 per maand/,
    );
    expect(before).toContain("Nog 20 van je 20 gratis afdrukken deze maand.");

    expect((await choose(browser, "premium", "2026-12-13")).statusCode).toBe(303);
    const after = await pageText(browser);
    expect(after).toMatch(
      /Je abonnement is nu Premium\. We schrijven €\s1,00 af voor de rest van de periode/,
    );
    expect(after).toMatch(/Je overstap naar Premium loopt: we schrijven €\s1,00 af/);
    // Premium from today: its prints too.
    expect(after).toContain("Nog 50 van je 50 gratis afdrukken deze maand.");
    expect((await rows("up@example.test"))[0]).toMatchObject({ plan_id: "premium", monthly_cents: 999 });
    // While it is charged, no second change.
    const second = await choose(browser, "plus", "2026-12-13");
    expect(second.statusCode).toBe(409);
    expect(textOf(second.body)).toContain("Je vorige overstap wordt nog afgeschreven.");

    const [change] = await changes(id);
    expect(change).toMatchObject({
      kind: "upgrade",
      from_plan_id: "plus",
      to_plan_id: "premium",
      starts_on: "2026-12-13",
      period_end: "2026-12-27",
      amount_cents: 100,
      status: "charging",
    });
    expect(change?.payment_id).toMatch(/^tp_/);
    await decide(change?.test_page_url ?? null, "paid");
    expect((await changes(id))[0]?.status).toBe("paid");
    const invoices = (await mails("up@example.test")).filter((m) => m.kind === "subscription-upgraded");
    expect(invoices).toHaveLength(1);
    expect(invoices[0]?.subject).toMatch(
      /^Je fotoabonnement is nu Premium: factuur FH-A-[0-9A-Z_-]{8}-20261213-W\d+$/,
    );
    expect(invoices[0]?.text_body).toContain("Periode: zondag 13 december 2026 t/m zondag 27 december 2026");
    // € 1,00 with 21% VAT in it: € 0,17.
    expect(invoices[0]?.text_body).toMatch(/Bedrag zonder btw: €\s0,83\nBtw 21%: €\s0,17\nTotaal: €\s1,00\n/);
    // The invoice is for the plan upgraded to.
    expect(invoices[0]?.text_body).toContain("Omschrijving: fotoabonnement Premium\n");
    expect(await pageText(browser)).not.toContain("Je overstap naar Premium loopt");

    // The webhook again changes nothing and mails nothing.
    await sub.shop.app.inject({
      method: "POST",
      url: "/api/betalingen/webhook",
      payload: `id=${change?.payment_id}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect((await mails("up@example.test")).filter((m) => m.kind === "subscription-upgraded")).toHaveLength(
      1,
    );

    // The next period is Premium's: its offer's second month.
    const { charges: job } = instance(database);
    await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    expect((await sub.charges(id))[0]).toMatchObject({ period_start: "2026-12-28", amount_cents: 499 });
  });

  it("a failed upgrade charge puts the old plan back with a mail; a stale or empty choice comes back with the form", async () => {
    const { id, browser } = await subscriber("fails@example.test", "plus", "de", "2026-12-13");
    // The page of yesterday: its amounts are not today's, so the form comes back, the choice kept.
    const stale = await choose(browser, "premium", "2026-12-12", "de");
    expect(stale.statusCode).toBe(409);
    expect(textOf(stale.body)).toContain("Inzwischen ist ein neuer Tag");
    expect(stale.body).toMatch(/value="premium" checked/);
    const empty = await choose(browser, undefined, "2026-12-13", "de");
    expect(empty.statusCode).toBe(400);
    expect(textOf(empty.body)).toContain("Wählen Sie ein Abo.");
    expect(await changes(id)).toEqual([]);

    await choose(browser, "premium", "2026-12-13", "de");
    const [change] = await changes(id);
    await decide(change?.test_page_url ?? null, "failed");
    expect((await changes(id))[0]?.status).toBe("failed");
    expect((await rows("fails@example.test"))[0]).toMatchObject({
      plan_id: "plus",
      monthly_cents: 599,
      offer_cents: 299,
      offer_months: 3,
    });
    const mail = (await mails("fails@example.test")).find((m) => m.kind === "subscription-upgrade-failed");
    expect(mail?.locale).toBe("de");
    expect(mail?.subject).toBe("Ihr Wechsel zu Premium hat nicht geklappt");
    expect(mail?.text_body).toMatch(
      /wir konnten 1,00\s€ für Ihren Wechsel zum Foto-Abo Premium nicht abbuchen/,
    );
    expect(mail?.text_body).toContain("Ihr Abo bleibt Plus.");
    const page = await pageText(browser, "de");
    expect(page).toContain("Noch 20 von Ihren 20 Gratis-Abzügen in diesem Monat.");
    // It can be tried again.
    expect(page).toMatch(/Premium: sofort, jetzt 1,00\s€ für den Rest des Zeitraums/);

    // A mandate the bank revoked: the provider refuses the charge at once, and nothing changes.
    await sub.shop.database.db.updateTable("test_mandates").set({ status: "invalid" }).execute();
    const refused = await choose(browser, "premium", "2026-12-13", "de");
    expect(refused.statusCode).toBe(503);
    expect(textOf(refused.body)).toContain(
      "Der Wechsel hat nicht geklappt: Wir konnten den Betrag nicht abbuchen.",
    );
    expect(refused.body).toMatch(/value="premium" checked/);
    expect((await rows("fails@example.test"))[0]).toMatchObject({ plan_id: "plus" });
    expect((await changes(id)).map((c) => c.status)).toEqual(["failed", "failed"]);
  });

  it("an upgrade whose request died before the provider answered is charged by the next renewal run, once", async () => {
    const { id, browser, database } = await subscriber("died@example.test", "plus", "nl", "2026-12-13");
    await choose(browser, "premium", "2026-12-13");
    const [asked] = await changes(id);
    // As if the process had died between storing the change and hearing the provider's answer.
    await database.db
      .updateTable("subscription_plan_changes")
      .set({
        payment_id: null,
        payment_status: null,
        test_page_url: null,
        created_at: "2026-11-01T00:00:00Z",
      })
      .execute();
    const { charges: job } = instance(database);
    const run = await runRenewals({ database, charges: job, log: silent }, "2026-12-13");
    expect(run).toMatchObject({ counts: { upgradesSettled: 1 } });
    const [settled] = await changes(id);
    // The same key: the provider gives the same payment back, nothing is charged twice.
    expect(settled?.payment_id).toBe(asked?.payment_id);
    await decide(settled?.test_page_url ?? null, "paid");
    expect((await changes(id))[0]?.status).toBe("paid");
    expect((await rows("died@example.test"))[0]?.plan_id).toBe("premium");
    expect(await runRenewals({ database, charges: job, log: silent }, "2026-12-13")).toMatchObject({
      counts: { upgradesSettled: 0 },
    });
  });

  it("a withdrawal pays back the unused days of an upgrade too", async () => {
    // 25 of the 30 days left: (4,99 − 2,99) × 25 / 30 = 1,666…: € 1,66.
    const { id, browser, database } = await subscriber("back@example.test", "plus", "nl", "2026-12-03");
    await choose(browser, "premium", "2026-12-03");
    const [change] = await changes(id);
    expect(change?.amount_cents).toBe(166);
    await decide(change?.test_page_url ?? null, "paid");

    const { deps } = instance(database);
    const result = await withdrawSubscription(deps, id, "2026-12-08");
    // First month: 2,99 × 19 / 30 = 1,89; the upgrade: 1,66 × 19 / 25 = 1,26.
    expect(result).toMatchObject({ kind: "withdrawn", refundCents: 315 });
    const refunds = await database.db.selectFrom("test_refunds").select(["amount_cents"]).execute();
    expect(refunds.map((r) => Number(r.amount_cents)).sort()).toEqual([126, 189]);
    // Asked again, nothing more is paid back.
    await withdrawSubscription(deps, id, "2026-12-08");
    expect(await database.db.selectFrom("test_refunds").select("amount_cents").execute()).toHaveLength(2);
  });

  it("a withdrawal whose second refund fails stays undone, and asked again pays back only what is left", async () => {
    const { id, browser, database } = await subscriber("halfway@example.test", "plus", "nl", "2026-12-03");
    await choose(browser, "premium", "2026-12-03");
    await decide((await changes(id))[0]?.test_page_url ?? null, "paid");
    const { deps } = instance(database);
    const refundPayment = deps.provider.refundPayment.bind(deps.provider);
    let providerDown = true;
    const flaky = {
      ...deps,
      provider: Object.assign(Object.create(deps.provider), {
        refundPayment: (refund: Parameters<typeof refundPayment>[0]) =>
          providerDown && refund.idempotencyKey.includes("upgrade")
            ? Promise.reject(new PaymentProviderUnavailable("the provider is down"))
            : refundPayment(refund),
      }),
    };
    expect(await withdrawSubscription(flaky, id, "2026-12-08")).toEqual({ kind: "unavailable" });
    // The first month's refund went through; the subscription is as it was, with no mail.
    const amounts = async () =>
      (await database.db.selectFrom("test_refunds").select("amount_cents").execute())
        .map((r) => Number(r.amount_cents))
        .sort();
    expect(await amounts()).toEqual([189]);
    expect((await rows("halfway@example.test"))[0]?.status).toBe("active");
    expect((await mails("halfway@example.test")).map((m) => m.kind)).not.toContain("subscription-withdrawn");

    providerDown = false;
    expect(await withdrawSubscription(flaky, id, "2026-12-08")).toMatchObject({
      kind: "withdrawn",
      refundCents: 315,
    });
    expect(await amounts()).toEqual([126, 189]);
    expect((await rows("halfway@example.test"))[0]?.status).toBe("withdrawn");
  });

  it("behind with paying, the plan does not change until the month is paid", async () => {
    const { id, browser, database } = await subscriber("behind@example.test", "premium", "nl", "2026-12-28");
    const { charges: job } = instance(database);
    // The paid month is over and the next is not charged yet: nothing is paid to change.
    expect(await pageText(browser)).toContain(
      "Een ander abonnement kiezen kan zolang je abonnement actief en betaald is.",
    );
    await runRenewals({ database, charges: job, log: silent }, "2026-12-28");
    await decide((await sub.charges(id))[0]?.page_url ?? null, "failed");
    const page = await pageText(browser);
    expect(page).toContain("Een ander abonnement kiezen kan zolang je abonnement actief en betaald is.");
    expect(page).not.toContain('name="plan"');
    const refused = await choose(browser, "plus", "2026-12-28");
    expect(refused.statusCode).toBe(409);
    expect(await changes(id)).toEqual([]);
  });
});
