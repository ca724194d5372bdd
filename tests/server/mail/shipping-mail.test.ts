import { describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { createI18n, loadMessages } from "../../../server/i18n/index.ts";
import { shippingMail } from "../../../server/mail/shipping-mail.ts";
import type { OrderDraft } from "../../../server/store/order-repository.ts";

const i18n = createI18n(loadMessages(paths.locales), (key, locale) => {
  throw new Error(`translation missing: ${locale} ${key}`);
});

const lines = (productName: string, bookName: string): OrderDraft["lines"] => [
  {
    productId: "canvas",
    orientation: "landscape",
    sizeId: "60x40",
    productName,
    quantity: 2,
    unitCents: 3995,
    totalCents: 7990,
  },
  {
    productId: "exclusive-photobook",
    orientation: "portrait",
    sizeId: "21x30",
    productName: bookName,
    quantity: 1,
    unitCents: 4999,
    totalCents: 4999,
    projectId: "project-1",
  },
];

const totals = { subtotalCents: 12989, shippingCents: 0, vatRate: 21, vatCents: 2254, totalCents: 12989 };

const dutchOrder: OrderDraft = {
  locale: "nl",
  address: {
    name: "Anna de Vries",
    street: "Dorpsstraat 12",
    postcode: "1234 AB",
    city: "Utrecht",
    country: "NL",
    email: "anna@example.nl",
  },
  lines: lines("Canvas", "Exclusief fotoboek"),
  ...totals,
  production: { min: 3, max: 5 },
};

const germanOrder: OrderDraft = {
  locale: "de",
  address: {
    name: "Jonas Becker",
    street: "Hauptstraße 5",
    postcode: "10115",
    city: "Berlin",
    country: "DE",
    email: "jonas@example.de",
  },
  lines: lines("Leinwand", "Exklusives Fotobuch"),
  ...totals,
  production: { min: 3, max: 5 },
};

/** Sent on a Friday afternoon. */
const friday = new Date("2026-12-11T15:00:00Z");

describe("the shipping mail", () => {
  it("tells a Dutch shopper, informally, what is on its way and where to, with customer service", () => {
    const mail = shippingMail(i18n.t.nl, dutchOrder, 42, friday);
    expect(mail).toMatchObject({
      kind: "order-shipped",
      locale: "nl",
      to: "anna@example.nl",
      replyTo: "klantenservice@fotohoek.nl",
      subject: "Je bestelling 100042 is onderweg",
    });
    expect(mail.text).toBe(
      [
        "Beste Anna de Vries,",
        "",
        "Goed nieuws: we hebben je bestelling 100042 verzonden. Het pakket is nu onderweg naar je.",
        // PostNL: the next working day.
        "We verwachten het pakket op maandag 14 december 2026.",
        "",
        "Wat we hebben verzonden",
        "2 × Canvas (Liggend, 60x40 cm)",
        "1 × Exclusief fotoboek (Staand, 21x30 cm, je eigen fotoboekproject)",
        "",
        "We bezorgen het op dit adres",
        "Anna de Vries",
        "Dorpsstraat 12",
        "1234 AB Utrecht",
        "Nederland",
        "",
        "Vragen over je zending? Mail naar klantenservice@fotohoek.nl of bel +31 85 123 45 67 (ma–vr 9.00–17.00 uur) en noem je bestelnummer 100042.",
        "",
        "Met vriendelijke groet,",
        "Fotohoek",
        "Fotohoek B.V., Oudegracht 120, 3511 AX Utrecht, Nederland · Kamer van Koophandel (KvK) 12345678 · btw-id NL001234567B01",
        "",
      ].join("\n"),
    );
  });

  it("tells a German shopper, formally, in German, with the German customer service", () => {
    const mail = shippingMail(i18n.t.de, germanOrder, 7, friday);
    expect(mail).toMatchObject({
      kind: "order-shipped",
      locale: "de",
      to: "jonas@example.de",
      replyTo: "kundenservice@fotohoek.de",
      subject: "Ihre Bestellung 100007 ist unterwegs",
    });
    expect(mail.text).toBe(
      [
        "Guten Tag Jonas Becker,",
        "",
        "gute Nachrichten: Wir haben Ihre Bestellung 100007 versandt. Das Paket ist jetzt auf dem Weg zu Ihnen.",
        // DHL to Germany: one to two working days.
        "Das Paket kommt voraussichtlich am Montag, 14.\u2009–\u2009Dienstag, 15. Dezember 2026 bei Ihnen an.",
        "",
        "Was wir versandt haben",
        "2 × Leinwand (Querformat, 60x40 cm)",
        "1 × Exklusives Fotobuch (Hochformat, 21x30 cm, Ihr eigenes Fotobuchprojekt)",
        "",
        "Wir liefern an diese Adresse",
        "Jonas Becker",
        "Hauptstraße 5",
        "10115 Berlin",
        "Deutschland",
        "",
        "Fragen zu Ihrer Sendung? Schreiben Sie an kundenservice@fotohoek.de oder rufen Sie an: +49 30 123 456 78 (Mo–Fr 9:00–17:00 Uhr). Bitte nennen Sie dabei Ihre Bestellnummer 100007.",
        "",
        "Mit freundlichen Grüßen",
        "Fotohoek",
        "Fotohoek B.V., Oudegracht 120, 3511 AX Utrecht, Niederlande · Handelsregister der niederländischen Handelskammer (Kamer van Koophandel) 12345678 · USt-IdNr. NL001234567B01",
        "",
      ].join("\n"),
    );
  });

  it("names no price: the confirmation had them", () => {
    for (const [locale, order] of [
      ["nl", dutchOrder],
      ["de", germanOrder],
    ] as const) {
      expect(shippingMail(i18n.t[locale], order, 1, friday).text).not.toMatch(/€|EUR|79,90|129,89/);
    }
  });
});
