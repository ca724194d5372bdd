import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { orderPagePath } from "../../../server/domain/order-link.ts";
import { createI18n, loadMessages } from "../../../server/i18n/index.ts";
import { orderConfirmationMail } from "../../../server/mail/order-confirmation.ts";
import { enqueueMail } from "../../../server/mail/outbox.ts";
import { createMailSender } from "../../../server/mail/sender.ts";
import { shippingMail } from "../../../server/mail/shipping-mail.ts";
import { fileTransport } from "../../../server/mail/transport.ts";
import { orderRepository } from "../../../server/store/order-repository.ts";
import { storageKeys } from "../../../server/uploads/photo-storage.ts";
import {
  accountPaths,
  annasAddress,
  mainText,
  password,
  placeOrder,
  signedUp,
  signIn,
} from "../../support/accounts.ts";
import { type TestShop, testSecret, testShop } from "../../support/app.ts";
import { BrowserSession } from "../../support/browser-session.ts";
import { testDatabases } from "../../support/databases.ts";
import { testLegalPages } from "../../support/legal.ts";
import { startPhotoBook } from "../../support/photos.ts";

const nl = accountPaths.nl;
const i18n = createI18n(loadMessages(paths.locales), () => {});
const address = { ...annasAddress, phone: "06 12345678" };

describe.each(testDatabases())("an account's data, on $name", (target) => {
  let shop: TestShop;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    shop = await testShop({
      database: opened.database,
      env: { SIGNUP_RATE_LIMIT: "1000" },
      sleep: async () => {},
    });
  });
  afterEach(async () => {
    await shop.app.close();
    await cleanup();
  });

  const db = () => shop.database.db;

  /** Anna: an account with a photo book of one photo, an order placed for it, and an address. */
  async function anna(): Promise<BrowserSession> {
    const browser = await signedUp(shop.app, db(), { email: "anna@example.nl" });
    const started = await startPhotoBook(browser);
    expect(started.statusCode).toBe(303);
    await placeOrder(browser, address, 2);
    return browser;
  }

  it("downloads as one JSON file: account, addresses, orders, subscription and a list of photos, and no secrets", async () => {
    const browser = await anna();
    const res = await browser.get(nl.export);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["content-disposition"]).toBe('attachment; filename="fotohoek-mijn-gegevens.json"');
    const data = JSON.parse(res.body);
    expect(data.account).toMatchObject({ name: "Anna de Vries", email: "anna@example.nl", language: "nl" });
    expect(data.addresses).toEqual([
      expect.objectContaining({ street: "Dorpsstraat 12", phone: "06 12345678" }),
    ]);
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({
      status: "awaiting_payment",
      address: expect.objectContaining({ city: "Utrecht" }),
    });
    expect(data.orders[0].lines[0]).toMatchObject({ productId: "exclusive-photobook", quantity: 2 });
    expect(data.subscription).toBeNull();
    expect(data.photos).toEqual([expect.objectContaining({ name: "strand.jpg", inProject: true })]);
    expect(data.photoProjects).toHaveLength(1);
    expect(res.body).not.toMatch(/scrypt|password|token/i);
    // Nobody else's: without the session there is nothing to download.
    expect((await shop.app.inject({ url: nl.export })).statusCode).toBe(303);
  });

  it("deletes the account, its photos (rows and files) and addresses; its orders stay for the books without who", async () => {
    const browser = await anna();
    const upload = await db().selectFrom("uploads").select("id").executeTakeFirstOrThrow();
    const files = join(shop.config.dataDir, "uploads");
    expect(existsSync(join(files, storageKeys.original(upload.id)))).toBe(true);

    await browser.get(nl.privacy);
    const wrong = await browser.form(nl.delete, { currentPassword: "niet mijn wachtwoord" });
    expect(wrong.statusCode).toBe(422);
    expect(mainText(wrong)).toContain("Dit wachtwoord klopt niet.");
    expect(await db().selectFrom("accounts").selectAll().execute()).toHaveLength(1);

    const deleted = await browser.form(nl.delete, { currentPassword: password });
    expect(deleted.statusCode).toBe(200);
    expect(mainText(deleted)).toContain("Je account is verwijderd");
    expect(await db().selectFrom("accounts").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("sessions").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("addresses").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("uploads").selectAll().execute()).toEqual([]);
    expect(await db().selectFrom("photo_projects").selectAll().execute()).toEqual([]);
    expect(existsSync(join(files, storageKeys.original(upload.id)))).toBe(false);
    const [order] = await db().selectFrom("orders").selectAll().execute();
    expect(order).toMatchObject({
      name: "",
      street: "",
      postcode: "",
      city: "",
      email: "",
      phone: null,
      account_id: null,
    });
    expect(order?.status).toBe("cancelled");
    expect(Number(order?.total_cents)).toBeGreaterThan(0);
    const lines = await db().selectFrom("order_lines").selectAll().execute();
    expect(lines.map((l) => [l.product_id, Number(l.quantity)])).toEqual([["exclusive-photobook", 2]]);
    // A goodbye to the address, and nothing to sign in to any more.
    const goodbye = await db()
      .selectFrom("outbox")
      .select("kind")
      .where("to_address", "=", "anna@example.nl")
      .execute();
    expect(goodbye.map((m) => m.kind)).toContain("account-deleted");
    expect((await signIn(shop.app, "anna@example.nl")).res.statusCode).toBe(422);
    expect((await browser.get(nl.account)).statusCode).toBe(303);
  });

  it("erases the account's mails at once, sent or queued, rows' content and .eml files; the goodbye names only its address", async () => {
    const mailFolder = join(shop.config.dataDir, "mail");
    const sender = createMailSender({
      db: db(),
      dialect: shop.database.dialect,
      transport: fileTransport(mailFolder, shop.config.mailFrom),
      log: { info() {}, warn() {}, error() {} },
    });
    // The sign-up link, and a password reset: both sent as the shop sends them without SMTP.
    const browser = await anna();
    const forgot = async () => {
      const stranger = new BrowserSession(shop.app);
      await stranger.get(nl.forgotten);
      return stranger.form(nl.forgotten, { email: "anna@example.nl" });
    };
    await forgot();
    // Her order paid and shipped, with the mails the payment and the shipping queue.
    const [placed] = await db().selectFrom("orders").select("id").execute();
    const order = await orderRepository(db()).get(Number(placed?.id));
    if (!order) throw new Error("no order placed");
    await db().updateTable("orders").set({ status: "shipped" }).execute();
    const dispatch = { from: "2026-06-12", to: "2026-06-16" };
    const pageUrl = `http://localhost:3000${orderPagePath(i18n.routes, "nl", order.id, testSecret)}`;
    await enqueueMail(
      db(),
      orderConfirmationMail(
        i18n.t.nl,
        order,
        order.id,
        { amountCents: 5495, dispatch, pageUrl },
        testLegalPages(i18n),
      ),
    );
    await enqueueMail(db(), shippingMail(i18n.t.nl, order, order.id, new Date()));
    await sender.runOnce();
    // Asked for a new password once more, just before deleting: that mail has not gone out yet.
    await forgot();
    const kinds = (await db().selectFrom("outbox").select("kind").orderBy("id").execute()).map((m) => m.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(["account-confirm", "password-reset", "order-confirmation", "order-shipped"]),
    );
    expect(readdirSync(mailFolder).length).toBe(kinds.length - 1);
    const links = (await db().selectFrom("outbox").select("text_body").execute()).flatMap(
      (m) => m.text_body.match(/https?:\/\/\S+/g) ?? [],
    );
    expect(links.length).toBeGreaterThanOrEqual(3);

    await browser.get(nl.privacy);
    expect((await browser.form(nl.delete, { currentPassword: password })).statusCode).toBe(200);
    await sender.runOnce();
    await sender.stop();

    const rows = await db().selectFrom("outbox").selectAll().orderBy("id").execute();
    const goodbye = rows.filter((m) => m.kind === "account-deleted");
    expect(goodbye).toHaveLength(1);
    expect(goodbye[0]?.to_address).toBe("anna@example.nl");
    expect(goodbye[0]?.sent_at).not.toBeNull();
    // The queued reset was never sent, and says why.
    const unsent = rows.filter((m) => m.sent_at === null);
    expect(unsent.map((m) => m.kind)).toEqual(["password-reset"]);
    expect(unsent[0]?.last_error).toMatch(/erased/);
    // Every earlier mail stays only as a record: its kind, language and times.
    for (const mail of rows.filter((m) => m.kind !== "account-deleted")) {
      expect([mail.to_address, mail.subject, mail.text_body, mail.html_body]).toEqual(["", "", "", null]);
    }
    const files = readdirSync(mailFolder);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/account-deleted\.eml$/);
    const kept = [
      ...rows.map((m) => JSON.stringify(m)),
      ...files.map((name) => readFileSync(join(mailFolder, name), "utf8")),
    ].join("\n");
    for (const personal of ["Anna", "Vries", "Dorpsstraat", "Utrecht", "1234 AB", "06 12345678", ...links]) {
      expect(kept).not.toContain(personal);
    }
    // The goodbye's address, and in its file only as the recipient.
    const goodbyeFile = readFileSync(join(mailFolder, files[0] as string), "utf8");
    expect(goodbyeFile.split("anna@example.nl")).toHaveLength(2);
    expect(goodbyeFile).toMatch(/^To: anna@example\.nl$/m);
  });

  it("erases the contact messages sent from the account's address at once: rows, both mails and their .eml files; others' stay", async () => {
    const mailFolder = join(shop.config.dataDir, "mail");
    const sender = createMailSender({
      db: db(),
      dialect: shop.database.dialect,
      transport: fileTransport(mailFolder, shop.config.mailFrom),
      log: { info() {}, warn() {}, error() {} },
    });
    const ask = async (email: string, question: string) => {
      const browser = new BrowserSession(shop.app);
      await browser.get("/klantenservice/contact");
      const sent = await browser.form("/klantenservice/contact", {
        name: email === "bert@example.nl" ? "Bert Smit" : "Anna de Vries",
        email,
        orderNumber: "",
        subject: "delivery",
        question,
        website: "",
      });
      expect(sent.statusCode).toBe(303);
    };
    const browser = await signedUp(shop.app, db(), { email: "anna@example.nl" });
    await ask("bert@example.nl", "Wanneer komt het canvas van Bert?");
    await ask("Anna@Example.nl", "Kan mijn fotoboek naar de Kerkstraat 5?");
    await sender.runOnce();
    // Asked again just before deleting: those mails have not gone out yet.
    await ask("anna@example.nl", "Toch liever naar de Kerkstraat 7?");
    const contactMails = () =>
      db().selectFrom("outbox").selectAll().where("kind", "like", "contact-%").orderBy("id").execute();
    expect((await contactMails()).map((m) => [m.kind, m.sent_at !== null])).toEqual([
      ["contact-copy", true],
      ["contact-support", true],
      ["contact-copy", true],
      ["contact-support", true],
      ["contact-copy", false],
      ["contact-support", false],
    ]);
    const filesBefore = readdirSync(mailFolder).filter((f) => f.includes("contact-"));
    expect(filesBefore).toHaveLength(4);

    await browser.get(nl.privacy);
    expect((await browser.form(nl.delete, { currentPassword: password })).statusCode).toBe(200);
    await sender.runOnce();
    await sender.stop();

    const messages = await db().selectFrom("contact_messages").select(["email", "question"]).execute();
    expect(messages).toEqual([{ email: "bert@example.nl", question: "Wanneer komt het canvas van Bert?" }]);
    const [bertsCopy, bertsSupport, ...annas] = await contactMails();
    expect([bertsCopy?.to_address, bertsSupport?.reply_to]).toEqual(["bert@example.nl", "bert@example.nl"]);
    expect(bertsSupport?.text_body).toContain("canvas van Bert");
    expect(annas).toHaveLength(4);
    for (const mail of annas) {
      expect([mail.to_address, mail.reply_to, mail.subject, mail.text_body, mail.erased_at !== null]).toEqual(
        ["", null, "", "", true],
      );
    }
    // The two asked last were never sent, to Anna or to customer service.
    expect(annas.filter((m) => m.sent_at === null).map((m) => m.last_error)).toEqual([
      "erased with its account before it was sent",
      "erased with its account before it was sent",
    ]);
    const filesAfter = readdirSync(mailFolder).filter((f) => f.includes("contact-"));
    expect(filesAfter).toHaveLength(2);
    const kept = filesAfter.map((name) => readFileSync(join(mailFolder, name), "utf8")).join("\n");
    expect(kept).toContain("canvas van Bert");
    expect(kept).not.toContain("Kerkstraat");
  });

  it("waits while an order is paid but not yet shipped: it still needs its address and photos", async () => {
    const browser = await anna();
    await db().updateTable("orders").set({ status: "paid" }).execute();
    await browser.get(nl.privacy);
    const refused = await browser.form(nl.delete, { currentPassword: password });
    expect(refused.statusCode).toBe(409);
    expect(mainText(refused)).toMatch(/Je bestelling \d+ wordt nog gemaakt of verzonden/);
    expect(await db().selectFrom("accounts").selectAll().execute()).toHaveLength(1);
    expect(await db().selectFrom("uploads").selectAll().execute()).toHaveLength(1);
  });
});

describe("the privacy statement", () => {
  it("says what is kept and how long, how to download and delete, in both languages", async () => {
    // The windows come from the settings the clean-up job runs by, not from typed numbers.
    const shop = await testShop({ env: { MAIL_BODY_DAYS: "21", STAGED_UPLOAD_DAYS: "5" } });
    try {
      const nlPage = await new BrowserSession(shop.app).get("/privacy");
      expect(nlPage.statusCode).toBe(200);
      expect(mainText(nlPage)).toContain("Bestellingen: 7 jaar");
      expect(mainText(nlPage)).toContain("Onze kopie van een e-mail: 21 dagen");
      expect(mainText(nlPage)).toContain("Een foto die nooit in een project kwam: 5 dagen");
      // What the statement used to leave out: contact messages and the client address.
      expect(mainText(nlPage)).toContain("Je vraag aan de klantenservice");
      expect(mainText(nlPage)).toContain("Je IP-adres");
      expect(mainText(nlPage)).toContain(
        "download je onder Mijn account > Privacy alles wat we van je bewaren",
      );
      expect(mainText(nlPage)).toContain(
        "de vragen die je vanaf het adres van je account aan de klantenservice stelde verdwijnen dan",
      );
      const dePage = await new BrowserSession(shop.app).get("/datenschutz");
      expect(mainText(dePage)).toContain("löschen Ihr Konto");
      expect(mainText(dePage)).toContain("Unsere Kopie einer E-Mail: 21 Tage");
      expect(nlPage.body).toContain('<a href="/privacy">Privacy</a>');
    } finally {
      await shop.close();
    }
  });
});
