import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { createI18n, loadMessages } from "../../../server/i18n/index.ts";
import { type CleanUpDeps, runCleanUp } from "../../../server/jobs/clean-up.ts";
import { orderConfirmationMail } from "../../../server/mail/order-confirmation.ts";
import { orderExpiredMail, paymentFailedMail } from "../../../server/mail/order-mails.ts";
import { queueOrderExpiredMail } from "../../../server/payments/order-payments.ts";
import type { OrderDraft } from "../../../server/store/order-repository.ts";
import { diskPhotoStorage } from "../../../server/uploads/photo-storage.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { testLegalPages } from "../../support/legal.ts";
import { orderRow } from "../../support/orders.ts";

const missing: string[] = [];
const i18n = createI18n(loadMessages(paths.locales), (key, locale) => missing.push(`${locale}:${key}`));
const legal = testLegalPages(i18n);

const line = {
  productId: "exclusive-photobook",
  orientation: "portrait",
  sizeId: "21x30",
  quantity: 2,
  unitCents: 2500,
  totalCents: 5000,
};

const orders: Record<"nl" | "de", OrderDraft> = {
  nl: {
    locale: "nl",
    address: {
      name: "Anna",
      street: "Dorpsstraat 1",
      postcode: "1234 AB",
      city: "Utrecht",
      country: "NL",
      email: "anna@example.nl",
    },
    lines: [{ ...line, productName: "Exclusief fotoboek" }],
    subtotalCents: 5000,
    shippingCents: 495,
    vatRate: 21,
    vatCents: 954,
    totalCents: 5495,
    production: { min: 3, max: 5 },
  },
  de: {
    locale: "de",
    address: {
      name: "Anja",
      street: "Hauptstraße 1",
      postcode: "10115",
      city: "Berlin",
      country: "DE",
      email: "anja@example.de",
    },
    lines: [{ ...line, productName: "Exklusives Fotobuch" }],
    subtotalCents: 5000,
    shippingCents: 0,
    vatRate: 19,
    vatCents: 798,
    totalCents: 5000,
    production: { min: 3, max: 3 },
  },
};

describe("the order confirmation, sent once paid", () => {
  it("in Dutch: paid, the amount, the lines and the expected dispatch and delivery dates", () => {
    const mail = orderConfirmationMail(
      i18n.t.nl,
      orders.nl,
      7,
      {
        amountCents: 5495,
        dispatch: { from: "2026-06-12", to: "2026-06-16" },
        pageUrl: "https://fotohoek.example/bestelling/100007?code=abc",
      },
      legal,
    );

    expect(mail).toMatchObject({ kind: "order-confirmation", locale: "nl", to: "anna@example.nl" });
    expect(mail.subject).toBe("Betaling ontvangen: je bestelling 100007 bij Fotohoek");
    expect(mail.text).toMatch(/^Beste Anna,\n/);
    expect(mail.text).toMatch(/We hebben je betaling van €\s54,95 ontvangen\./);
    expect(mail.text).toMatch(/2 × Exclusief fotoboek \(.+\): €\s50,00/);
    expect(mail.text).toMatch(/versturen op vrijdag 12\s*–\s*dinsdag 16 juni 2026\./);
    // PostNL delivers the next working day: as the overview promised before the order.
    expect(mail.text).toMatch(/bezorgen op maandag 15\s*–\s*woensdag 17 juni 2026\./);
    // The order's page by its own secret: the only way a guest opens it again.
    expect(mail.text).toContain(
      "Je bestelling bekijk je via deze link: https://fotohoek.example/bestelling/100007?code=abc",
    );
    expect(mail.text).not.toMatch(/nog niet mogelijk|Wacht op betaling/);
    expect(missing).toEqual([]);
  });

  it("carries the terms and the withdrawal information in full, as the durable copy, and names the seller", () => {
    for (const [locale, order, pageUrl, words] of [
      [
        "nl",
        orders.nl,
        "https://fotohoek.example/bestelling/100007?code=abc",
        [
          "\nAlgemene voorwaarden\n",
          "\nHerroepingsrecht\n",
          "Modelformulier voor herroeping",
          "Bedrijfsgegevens (https://fotohoek.example/bedrijfsgegevens)",
          "btw-id NL001234567B01",
        ],
      ],
      [
        "de",
        orders.de,
        "https://fotohoek.example/bestellung/100007?code=abc",
        [
          "\nAllgemeine Geschäftsbedingungen\n",
          "\nWiderrufsbelehrung\n",
          "Muster-Widerrufsformular",
          "Impressum (https://fotohoek.example/impressum)",
          "USt-IdNr. NL001234567B01",
        ],
      ],
    ] as const) {
      const mail = orderConfirmationMail(
        i18n.t[locale],
        order,
        7,
        { amountCents: 5000, dispatch: { from: "2026-06-12", to: "2026-06-12" }, pageUrl },
        legal,
      );
      expect(mail.text).toContain(legal.page("terms", locale).text[0]);
      for (const word of words) expect(mail.text, `${locale}: ${word}`).toContain(word);
      expect(mail.text).toContain("Fotohoek B.V., Oudegracht 120, 3511 AX Utrecht");
      expect(mail.text).not.toContain("route:");
      // Plain text, as a reader sees it: no Markdown escapes ("B\.V\."), link syntax or heading marks.
      expect(mail.text).not.toMatch(/\\[^\s]|\]\(|^#/m);
      expect(mail.text).toContain("(*) ");
    }
  });

  it("in German, formal: paid, the amount and one dispatch day", () => {
    const mail = orderConfirmationMail(
      i18n.t.de,
      orders.de,
      7,
      {
        amountCents: 5000,
        dispatch: { from: "2026-06-12", to: "2026-06-12" },
        pageUrl: "https://fotohoek.example/bestellung/100007?code=abc",
      },
      legal,
    );

    expect(mail.subject).toBe("Zahlung erhalten: Ihre Bestellung 100007 bei Fotohoek");
    expect(mail.text).toMatch(/^Guten Tag Anja,\n/);
    expect(mail.text).toMatch(/Wir haben Ihre Zahlung über 50,00\s€ erhalten\./);
    expect(mail.text).toContain("Wir versenden Ihre Bestellung voraussichtlich am Freitag, 12. Juni 2026.");
    // DHL to Germany: one to two working days.
    expect(mail.text).toMatch(
      /Wir stellen Ihre Bestellung voraussichtlich am Montag, 15\.\s*–\s*Dienstag, 16\. Juni 2026 zu\./,
    );
    expect(mail.text).toContain(
      "Ihre Bestellung finden Sie unter diesem Link: https://fotohoek.example/bestellung/100007?code=abc",
    );
    expect(mail.text).not.toMatch(/\bdu\b|\bdein/i);
    expect(missing).toEqual([]);
  });
});

describe("the payment-failed mail", () => {
  it.each([
    [
      "nl",
      "Je betaling voor bestelling 100007 is niet gelukt",
      /Er is niets afgeschreven\./,
      /binnen 24 uur/,
    ],
    [
      "de",
      "Ihre Zahlung für die Bestellung 100007 ist nicht gelungen",
      /Es wurde nichts abgebucht\./,
      /innerhalb von 24 Stunden/,
    ],
  ] as const)(
    "in %s: says nothing was taken and links to the order to pay again",
    (locale, subject, taken, expiry) => {
      const url = `https://shop.example/${locale === "nl" ? "bestelling" : "bestellung"}/100007`;
      const mail = paymentFailedMail(i18n.t[locale], orders[locale], 7, url);

      expect(mail).toMatchObject({
        kind: "payment-failed",
        locale,
        to: orders[locale].address.email,
        subject,
      });
      expect(mail.text).toMatch(taken);
      expect(mail.text).toMatch(expiry);
      expect(mail.text.split("\n")).toContain(url);
      expect(missing).toEqual([]);
    },
  );
});

describe("the order-expired mail", () => {
  it.each([
    ["nl", "Je bestelling 100007 is vervallen", /binnen 24 uur geen betaling ontvangen/],
    ["de", "Ihre Bestellung 100007 ist verfallen", /innerhalb von 24 Stunden keine Zahlung eingegangen/],
  ] as const)("in %s: says why, and that nothing was taken", (locale, subject, why) => {
    const mail = orderExpiredMail(i18n.t[locale], orders[locale], 7);

    expect(mail).toMatchObject({ kind: "order-expired", locale, subject });
    expect(mail.text).toMatch(why);
    expect(missing).toEqual([]);
  });
});

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe.each(testDatabases())("the clean-up expiring unpaid orders on $name", (target) => {
  const open = databasePerTest(target);

  it("queues one expired mail per expired order, also when it runs twice", async () => {
    const database = await open();
    const now = new Date("2026-11-25T12:00:00Z");
    const placed = (hoursAgo: number, key: string) => ({
      ...orderRow(key, "cart-anna"),
      created_at: new Date(now.getTime() - hoursAgo * 3_600_000).toISOString(),
    });
    await database.db
      .insertInto("orders")
      .values([placed(25, "key-old-aaaaaaaaaaaaaaa"), placed(23, "key-new-aaaaaaaaaaaaaaa")])
      .execute();
    const dir = mkdtempSync(join(tmpdir(), "shop-expiry-"));
    folders.push(dir);
    let woken = 0;
    const deps: CleanUpDeps = {
      database,
      photoStorage: diskPhotoStorage(dir),
      retention: { analyticsRawDays: 90, stagedUploadDays: 7, emptyProjectDays: 30, mailBodyDays: 30 },
      log: { info: () => {}, warn: () => {} } as unknown as CleanUpDeps["log"],
      now: () => now,
      onOrderExpired: queueOrderExpiredMail(i18n),
      mailQueued: () => {
        woken++;
      },
    };

    expect((await runCleanUp(deps)).counts.unpaidOrders).toBe(1);
    expect((await runCleanUp(deps)).counts.unpaidOrders).toBe(0);

    const queued = await database.db.selectFrom("outbox").select(["kind", "to_address", "subject"]).execute();
    expect(queued).toEqual([
      { kind: "order-expired", to_address: "anna@example.nl", subject: "Je bestelling 100001 is vervallen" },
    ]);
    expect(woken).toBe(1);
  });
});
