import { afterEach, describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { createI18n, loadMessages } from "../../../server/i18n/index.ts";
import type { Locale } from "../../../server/i18n/locales.ts";
import { contactMails } from "../../../server/mail/contact-mails.ts";
import { enqueueMail } from "../../../server/mail/outbox.ts";
import { createMailSender } from "../../../server/mail/sender.ts";
import { smtpTransport } from "../../../server/mail/transport.ts";
import type { StoredContactMessage } from "../../../server/store/contact-repository.ts";
import { openDatabase } from "../../../server/store/database.ts";
import { migrateToLatest } from "../../../server/store/migrate.ts";
import { type ReceivedMail, startSmtpServer } from "../../support/smtp.ts";

const from = "Fotohoek <klantenservice@fotohoek.nl>";
const supportEmail = "service@example.nl";
const i18n = createI18n(loadMessages(paths.locales), (key, locale) => {
  throw new Error(`translation missing: ${locale} ${key}`);
});
const receivedAt = new Date("2026-04-20T08:30:00Z");

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Composes the two mails as the contact route does and sends them through a real SMTP server. */
async function sendThroughSmtp(
  message: StoredContactMessage,
): Promise<{ copy: ReceivedMail; support: ReceivedMail }> {
  const server = await startSmtpServer();
  cleanups.push(() => server.close());
  const database = openDatabase("sqlite::memory:");
  cleanups.push(() => database.close());
  await migrateToLatest(database);
  const mails = contactMails(message, i18n.t[message.locale], {
    supportEmail,
    dateTime: (date) => date.toISOString(),
  });
  for (const mail of mails) await enqueueMail(database.db, mail, receivedAt);
  const sender = createMailSender({
    db: database.db,
    dialect: database.dialect,
    transport: smtpTransport(server.url, from),
    log: { info() {}, warn() {}, error() {} },
  });
  cleanups.push(() => sender.stop());
  expect(await sender.runOnce()).toEqual({ sent: 2, failed: 0 });

  const to = (address: string) => server.received.find((m) => m.envelope.to[0] === address);
  const copy = to(message.email);
  const support = to(supportEmail);
  if (!copy || !support) throw new Error("a mail did not arrive");
  expect(server.received).toHaveLength(2);
  return { copy, support };
}

function question(locale: Locale, fields: Partial<StoredContactMessage>): StoredContactMessage {
  return {
    id: 4711,
    receivedAt,
    locale,
    name: "Anna de Vries",
    email: "anna@example.nl",
    subject: "delivery",
    question: "Wanneer komt mijn fotoboek?",
    ...fields,
  };
}

/** What every mail of the shop carries, whatever its language. */
function expectPlainUtf8(mail: ReceivedMail, locale: Locale) {
  expect(mail.headers.get("from")).toBe(from);
  expect(mail.envelope.from).toBe("klantenservice@fotohoek.nl");
  expect(mail.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(mail.headers.get("content-language")).toBe(locale);
  // Nothing the shopper typed turned into a header of its own.
  expect(mail.headers.has("bcc")).toBe(false);
  expect(mail.headers.has("cc")).toBe(false);
}

describe("the contact form's mails as they arrive over SMTP", () => {
  it("for a Dutch shopper: a copy with the confirmation and their address, and the question for customer service", async () => {
    const message = question("nl", { orderNumber: "FH-123456" });
    const { copy, support } = await sendThroughSmtp(message);

    expectPlainUtf8(copy, "nl");
    expect(copy.envelope.to).toEqual(["anna@example.nl"]);
    expect(copy.headers.get("to")).toBe("anna@example.nl");
    expect(copy.headers.get("reply-to")).toBe(supportEmail);
    expect(copy.headers.get("subject")).toBe("Je vraag aan Fotohoek: Levering en verzending");
    expect(copy.text).toBe(
      [
        "Hallo Anna de Vries,",
        "",
        "Bedankt voor je vraag! We sturen je binnen 24 uur een antwoord op anna@example.nl. Hieronder staat een kopie van je vraag.",
        "",
        "Naam: Anna de Vries",
        "E-mailadres: anna@example.nl",
        "Bestelnummer: FH-123456",
        "Onderwerp: Levering en verzending",
        "",
        "Je vraag:",
        "Wanneer komt mijn fotoboek?",
        "",
        "Met vriendelijke groet,",
        "de klantenservice van Fotohoek",
        "",
      ].join("\n"),
    );

    expectPlainUtf8(support, "nl");
    expect(support.headers.get("to")).toBe(supportEmail);
    // Customer service answers the shopper directly.
    expect(support.headers.get("reply-to")).toBe("anna@example.nl");
    expect(support.headers.get("subject")).toBe(
      "Contactformulier: Levering en verzending (bestelling FH-123456)",
    );
    expect(support.text).toContain("Kenmerk: 4711\n");
    expect(support.text).toContain("Ontvangen: 2026-04-20T08:30:00.000Z\n");
    expect(support.text).toContain("Taal: Nederlands\n");
    expect(support.text).toContain("Je vraag:\nWanneer komt mijn fotoboek?\n");
  });

  it("for a German shopper: both mails entirely in German, umlauts intact", async () => {
    const message = question("de", {
      name: "Jürgen Groß",
      email: "juergen@example.de",
      subject: "photobook",
      question: "Wie groß darf ein Foto für das Fotobuch sein? Grüße aus Köln",
    });
    const { copy, support } = await sendThroughSmtp(message);

    expectPlainUtf8(copy, "de");
    expect(copy.headers.get("to")).toBe("juergen@example.de");
    expect(copy.headers.get("reply-to")).toBe(supportEmail);
    expect(copy.headers.get("subject")).toBe("Ihre Frage an Fotohoek: Ein Fotobuch gestalten");
    expect(copy.text).toBe(
      [
        "Guten Tag Jürgen Groß,",
        "",
        "vielen Dank für Ihre Frage! Wir senden Ihnen innerhalb von 24 Stunden eine Antwort an juergen@example.de. Unten finden Sie eine Kopie Ihrer Frage.",
        "",
        "Name: Jürgen Groß",
        "E-Mail-Adresse: juergen@example.de",
        "Thema: Ein Fotobuch gestalten",
        "",
        "Ihre Frage:",
        "Wie groß darf ein Foto für das Fotobuch sein? Grüße aus Köln",
        "",
        "Mit freundlichen Grüßen",
        "Ihr Kundenservice von Fotohoek",
        "",
      ].join("\n"),
    );

    expectPlainUtf8(support, "de");
    expect(support.headers.get("reply-to")).toBe("juergen@example.de");
    expect(support.headers.get("subject")).toBe("Kontaktformular: Ein Fotobuch gestalten");
    expect(support.text).toContain("Vorgangsnummer: 4711\n");
    expect(support.text).toContain("Eingegangen: 2026-04-20T08:30:00.000Z\n");
    expect(support.text).toContain("Sprache: Deutsch\n");
    expect(support.text).not.toMatch(/Kenmerk|Bedankt|Taal|Zeichen/);
  });
});
