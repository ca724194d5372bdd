import { describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { createI18n, loadMessages } from "../../../server/i18n/index.ts";
import {
  alreadySubscribedMail,
  subscriptionActiveMail,
  subscriptionConfirmMail,
  subscriptionExpiredMail,
  subscriptionPaymentFailedMail,
} from "../../../server/mail/subscription-mails.ts";

const missing: string[] = [];
const i18n = createI18n(loadMessages(paths.locales), (key, locale) => missing.push(`${locale}:${key}`));

const subscriber = {
  nl: {
    id: "3f2a9c1e-0000-4000-8000-000000000001",
    name: "Anna",
    email: "anna@example.nl",
    locale: "nl",
    country: "NL",
    planId: "premium",
    paidUntil: "2026-12-27",
  },
  de: {
    id: "3f2a9c1e-0000-4000-8000-000000000002",
    name: "Anja",
    email: "anja@example.de",
    locale: "de",
    country: "DE",
    planId: "premium",
    paidUntil: "2026-12-27",
  },
} as const;

const firstMonth = {
  periodStart: "2026-11-29",
  periodEnd: "2026-12-27",
  amountCents: 499,
  paymentId: "tr_first",
  invoice: "FH-A-3F2A9C1E-20261129",
  paidAt: new Date("2026-11-28T23:30:00Z"),
};

const expected = {
  nl: {
    confirm: [
      "Bevestig je aanmelding voor het fotoabonnement",
      "Hallo Anna,",
      "Premium",
      "€\u00a04,99",
      "24 uur",
    ],
    active: [
      "Je fotoabonnement Premium is actief: factuur FH-A-3F2A9C1E-20261129",
      "De eerste maand loopt tot en met zondag 27 december 2026.",
      "loopt elke maand vanzelf door",
      "\nFactuur FH-A-3F2A9C1E-20261129\n",
      // Paid at half past midnight in Utrecht: the invoice's date is the shop's day.
      "Factuurdatum: zondag 29 november 2026\n",
      "Verkoper: Fotohoek B.V., Oudegracht 120, 3511 AX Utrecht, Nederland · Kamer van Koophandel (KvK) 12345678 · btw-id NL001234567B01\n",
      "Aan: Anna, anna@example.nl, woonland Nederland\n",
      "Omschrijving: fotoabonnement Premium\n",
      "Periode: zondag 29 november 2026 t/m zondag 27 december 2026\n",
      "Bedrag zonder btw: €\u00a04,12\nBtw 21%: €\u00a00,87\nTotaal: €\u00a04,99\n",
      "Betaling: tr_first\n",
      "Abonnement: 3f2a9c1e-0000-4000-8000-000000000001",
    ],
    failed: ["Je betaling voor het fotoabonnement is niet gelukt", "niets afgeschreven", "24 uur"],
    expired: ["Je aanmelding voor het fotoabonnement is vervallen", "24 uur", "niets afgeschreven"],
  },
  de: {
    confirm: [
      "Bestätigen Sie Ihre Anmeldung zum Foto-Abo",
      "Guten Tag Anja,",
      "Premium",
      "4,99\u00a0€",
      "24 Stunden",
    ],
    active: [
      "Ihr Foto-Abo Premium ist aktiv: Rechnung FH-A-3F2A9C1E-20261129",
      "Der erste Monat läuft bis einschließlich Sonntag, 27. Dezember 2026.",
      "verlängert sich jeden Monat automatisch",
      "\nRechnung FH-A-3F2A9C1E-20261129\n",
      "Rechnungsdatum: Sonntag, 29. November 2026\n",
      "Anbieter: Fotohoek B.V., Oudegracht 120, 3511 AX Utrecht, Niederlande",
      "Rechnung an: Anja, anja@example.de, Wohnsitzland Deutschland\n",
      "Leistung: Foto-Abo Premium\n",
      "Leistungszeitraum: Sonntag, 29. November 2026 bis Sonntag, 27. Dezember 2026\n",
      "Betrag ohne MwSt.: 4,19\u00a0€\nMwSt. 19 %: 0,80\u00a0€\nGesamtbetrag: 4,99\u00a0€\n",
      "Zahlung: tr_first\n",
    ],
    failed: ["Ihre Zahlung für das Foto-Abo ist nicht gelungen", "nichts abgebucht", "24 Stunden"],
    expired: ["Ihre Anmeldung zum Foto-Abo ist verfallen", "24 Stunden", "nichts abgebucht"],
  },
};

describe.each(["nl", "de"] as const)("the subscription's mails in %s", (lang) => {
  const t = i18n.t[lang];
  const who = subscriber[lang];
  const all = (mail: { subject: string; text: string }) => `${mail.subject}\n${mail.text}`;

  it("the link to confirm names the plan, the first month's price and how long it works", () => {
    const mail = subscriptionConfirmMail(
      t,
      lang,
      { ...who, firstPeriodCents: 499 },
      "https://shop.test/l/abc",
    );
    expect(mail).toMatchObject({ kind: "subscription-confirm", locale: lang, to: who.email });
    for (const text of expected[lang].confirm) expect(all(mail)).toContain(text);
    expect(mail.text).toContain("\nhttps://shop.test/l/abc\n");
  });

  it("once paid, the welcome is the first month's invoice, and says that it renews each month", () => {
    const mail = subscriptionActiveMail(t, who, firstMonth);
    expect(mail).toMatchObject({ kind: "subscription-welcome", to: who.email });
    for (const text of expected[lang].active) expect(all(mail)).toContain(text);
  });

  it("a first payment that made no mandate: the welcome says nothing renews by itself", () => {
    const mail = subscriptionActiveMail(t, who, firstMonth, false);
    expect(mail.text).toContain(lang === "nl" ? "niet vanzelf door" : "nicht automatisch");
    expect(mail.text).not.toContain(lang === "nl" ? "elke maand vanzelf" : "jeden Monat automatisch");
  });

  it("a failed payment leads back to the subscription's page; an expired sign-up says nothing was taken", () => {
    const failed = subscriptionPaymentFailedMail(t, who, 499, "https://shop.test/s/1");
    for (const text of expected[lang].failed) expect(all(failed)).toContain(text);
    expect(failed.text).toContain("\nhttps://shop.test/s/1\n");
    const expired = subscriptionExpiredMail(t, who);
    expect(expired.kind).toBe("subscription-expired");
    for (const text of expected[lang].expired) expect(all(expired)).toContain(text);
  });

  it("the mail for an address that already has one repeats nothing a stranger typed", () => {
    const mail = alreadySubscribedMail(t, lang, who.email, "hulp@shop.test");
    expect(mail.replyTo).toBe("hulp@shop.test");
    expect(mail.text).not.toContain(who.name);
  });

  it("has every text it uses", () => {
    expect(missing).toEqual([]);
  });
});
