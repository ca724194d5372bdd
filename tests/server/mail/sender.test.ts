import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { enqueueMail, type OutgoingMail } from "../../../server/mail/outbox.ts";
import { eraseAccountMails } from "../../../server/mail/outbox-erasure.ts";
import { createMailSender, defaultBackoff, type MailSender } from "../../../server/mail/sender.ts";
import { fileTransport, type MailTransport, smtpTransport } from "../../../server/mail/transport.ts";
import type { Database } from "../../../server/store/database.ts";
import { testDatabases } from "../../support/databases.ts";
import { parseMail, startSmtpServer, type TestSmtpServer } from "../../support/smtp.ts";

const from = "Fotohoek <klantenservice@fotohoek.nl>";
const quiet = { info() {}, warn() {}, error() {} };

const dutch: OutgoingMail = {
  kind: "contact-copy",
  locale: "nl",
  to: "anna@example.nl",
  replyTo: "klantenservice@fotohoek.nl",
  subject: "Je vraag aan Fotohoek: Een fotoboek maken",
  text: "Hallo Anna,\n\nBedankt voor je vraag. Wij antwoorden binnen 24 uur.\n\nMet vriendelijke groet",
};
const german: OutgoingMail = {
  kind: "contact-copy",
  locale: "de",
  to: "juergen@example.de",
  subject: "Ihre Frage an Fotohoek: Bezahlung und Rechnungen – Größe",
  text: "Guten Tag Jürgen,\n\nvielen Dank für Ihre Frage. Grüße aus Köln: äöüß €",
};

describe("the mail sender", () => {
  it("waits longer after each failed attempt, at most an hour", () => {
    expect(defaultBackoff(1)).toBe(30_000);
    expect(defaultBackoff(2)).toBe(60_000);
    expect(defaultBackoff(5)).toBe(480_000);
    expect(defaultBackoff(20)).toBe(3_600_000);
  });
});

describe.each(testDatabases())("the mail sender on $name", (target) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(): Promise<Database> {
    const opened = await target.open();
    cleanups.push(opened.cleanup);
    return opened.database;
  }

  async function smtp(port?: number): Promise<TestSmtpServer> {
    const server = await startSmtpServer(port);
    cleanups.push(() => server.close());
    return server;
  }

  let clock = new Date("2026-04-20T10:00:00Z");
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  function sender(database: Database, transport: MailTransport, instanceId = "one"): MailSender {
    const made = createMailSender({
      db: database.db,
      dialect: database.dialect,
      transport,
      instanceId,
      now: () => clock,
      log: quiet,
      batchSize: 3,
    });
    cleanups.push(() => made.stop());
    return made;
  }

  const rows = (database: Database) => database.db.selectFrom("outbox").selectAll().orderBy("id").execute();

  it("delivers queued mail over SMTP with its headers and body, in Dutch and in German", async () => {
    const database = await open();
    const server = await smtp();
    clock = new Date("2026-04-20T10:00:00Z");
    const nlId = await enqueueMail(database.db, dutch, clock);
    const deId = await enqueueMail(database.db, german, clock);

    expect(await sender(database, smtpTransport(server.url, from)).runOnce()).toEqual({ sent: 2, failed: 0 });

    expect(server.received).toHaveLength(2);
    const [nl, de] = server.received;
    expect(nl?.envelope).toEqual({ from: "klantenservice@fotohoek.nl", to: ["anna@example.nl"] });
    expect(nl?.headers.get("from")).toBe(from);
    expect(nl?.headers.get("to")).toBe("anna@example.nl");
    expect(nl?.headers.get("reply-to")).toBe("klantenservice@fotohoek.nl");
    expect(nl?.headers.get("subject")).toBe(dutch.subject);
    expect(nl?.headers.get("content-language")).toBe("nl");
    expect(nl?.headers.get("message-id")).toBe(`<outbox-${nlId}.contact-copy@fotohoek.nl>`);
    expect(nl?.text.trim()).toBe(dutch.text);

    expect(de?.envelope.to).toEqual(["juergen@example.de"]);
    expect(de?.headers.get("subject")).toBe(german.subject);
    expect(de?.headers.get("content-language")).toBe("de");
    expect(de?.headers.get("message-id")).toBe(`<outbox-${deId}.contact-copy@fotohoek.nl>`);
    expect(de?.headers.has("reply-to")).toBe(false);
    expect(de?.text.trim()).toBe(german.text);

    for (const row of await rows(database)) {
      expect(row.sent_at).toBe(clock.toISOString());
      expect(Number(row.attempts)).toBe(1);
      expect(row.claimed_by).toBeNull();
    }
    // Sent mail is never sent again.
    expect(await sender(database, smtpTransport(server.url, from)).runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(server.received).toHaveLength(2);
  });

  it("keeps mail queued while the mail server is down and sends it once it is back", async () => {
    const database = await open();
    const first = await startSmtpServer();
    const port = first.port;
    await first.close();
    clock = new Date("2026-04-20T10:00:00Z");
    await enqueueMail(database.db, dutch, clock);
    const down = sender(database, smtpTransport(`smtp://127.0.0.1:${port}`, from));

    expect(await down.runOnce()).toEqual({ sent: 0, failed: 1 });
    let [row] = await rows(database);
    expect(row?.sent_at).toBeNull();
    expect(Number(row?.attempts)).toBe(1);
    expect(row?.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(row?.next_attempt_at).toBe(new Date(clock.getTime() + 30_000).toISOString());
    expect(row?.claimed_by).toBeNull();

    // Not due yet: nothing is tried before the back-off has passed.
    advance(10_000);
    expect(await down.runOnce()).toEqual({ sent: 0, failed: 0 });
    advance(20_000);
    expect(await down.runOnce()).toEqual({ sent: 0, failed: 1 });
    [row] = await rows(database);
    expect(Number(row?.attempts)).toBe(2);
    expect(row?.next_attempt_at).toBe(new Date(clock.getTime() + 60_000).toISOString());

    const back = await smtp(port);
    advance(60_000);
    expect(await down.runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(back.received).toHaveLength(1);
    expect(back.received[0]?.headers.get("subject")).toBe(dutch.subject);
    [row] = await rows(database);
    expect(row?.sent_at).toBe(clock.toISOString());
    expect(Number(row?.attempts)).toBe(3);
  });

  it("never sends one mail twice when several senders run at once", async () => {
    const database = await open();
    const server = await smtp();
    clock = new Date("2026-04-20T10:00:00Z");
    for (let i = 0; i < 12; i++) {
      await enqueueMail(database.db, { ...dutch, to: `shopper${i}@example.nl` }, clock);
    }
    const senders = ["a", "b", "c"].map((id) => sender(database, smtpTransport(server.url, from), id));
    const results = await Promise.all(senders.map((s) => s.runOnce()));

    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(12);
    const recipients = server.received.flatMap((m) => m.envelope.to).sort();
    expect(recipients).toEqual(Array.from({ length: 12 }, (_, i) => `shopper${i}@example.nl`).sort());
    expect((await rows(database)).every((r) => r.sent_at !== null)).toBe(true);
  });

  it("when a sender died holding a claim, another takes the mail over once the claim expires", async () => {
    const database = await open();
    const server = await smtp();
    clock = new Date("2026-04-20T10:00:00Z");
    const id = await enqueueMail(database.db, german, clock);
    // A sender claimed the mail and then the process died before it could send.
    await database.db
      .updateTable("outbox")
      .set({ claimed_by: "died", claimed_until: new Date(clock.getTime() + 300_000).toISOString() })
      .where("id", "=", id)
      .execute();

    const restarted = sender(database, smtpTransport(server.url, from), "restarted");
    expect(await restarted.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(server.received).toHaveLength(0);

    advance(300_000);
    expect(await restarted.runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(server.received).toHaveLength(1);
  });

  it("does not send a mail whose claim lapsed behind slow deliveries and was taken over", async () => {
    const database = await open();
    const server = await smtp();
    clock = new Date("2026-04-20T10:00:00Z");
    for (let i = 0; i < 3; i++) {
      await enqueueMail(database.db, { ...dutch, to: `shopper${i}@example.nl` }, clock);
    }
    const leaseMs = 300_000;
    const smtpOut = smtpTransport(server.url, from);
    const other = sender(database, smtpTransport(server.url, from), "other");
    const passesOfOther: Array<{ sent: number; failed: number }> = [];
    let deliveries = 0;
    // A mail server so slow that the batch's last claim lapses while the second mail is sent,
    // and another instance claims that mail meanwhile.
    const slow: MailTransport = {
      description: "a slow mail server",
      async deliver(mail) {
        deliveries++;
        advance(deliveries === 1 ? leaseMs / 2 : leaseMs / 2 + 1_000);
        if (deliveries === 2) passesOfOther.push(await other.runOnce());
        await smtpOut.deliver(mail);
      },
      close: () => smtpOut.close(),
    };

    expect(await sender(database, slow, "slow").runOnce()).toEqual({ sent: 2, failed: 0 });
    expect(passesOfOther).toEqual([{ sent: 1, failed: 0 }]);
    const recipients = server.received.flatMap((m) => m.envelope.to).sort();
    expect(recipients).toEqual(["shopper0@example.nl", "shopper1@example.nl", "shopper2@example.nl"]);
    const stored = await rows(database);
    expect(stored.every((r) => r.sent_at !== null && Number(r.attempts) === 1)).toBe(true);
  });

  it("leaves a mail whose claim lapsed unsent until it is claimed again, then sends it once", async () => {
    const database = await open();
    const server = await smtp();
    clock = new Date("2026-04-20T10:00:00Z");
    await enqueueMail(database.db, { ...dutch, to: "first@example.nl" }, clock);
    await enqueueMail(database.db, { ...dutch, to: "second@example.nl" }, clock);
    const smtpOut = smtpTransport(server.url, from);
    let firstDone = false;
    const slowFirst: MailTransport = {
      description: "a mail server that is slow once",
      async deliver(mail) {
        if (!firstDone) advance(400_000);
        firstDone = true;
        await smtpOut.deliver(mail);
      },
      close: () => smtpOut.close(),
    };
    const slow = createMailSender({
      db: database.db,
      dialect: database.dialect,
      transport: slowFirst,
      instanceId: "slow",
      now: () => clock,
      log: quiet,
      batchSize: 3,
      leaseMs: 300_000,
    });
    cleanups.push(() => slow.stop());

    // The second mail's claim lapsed while the first was sent: it waits for the next pass.
    expect(await slow.runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(server.received.map((m) => m.envelope.to[0])).toEqual(["first@example.nl"]);
    expect(await slow.runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(server.received.map((m) => m.envelope.to[0])).toEqual(["first@example.nl", "second@example.nl"]);
  });

  it("when stopped with a backlog, finishes the mail in hand, sends no more and hands back its claims", async () => {
    const database = await open();
    const server = await smtp();
    clock = new Date("2026-04-20T10:00:00Z");
    for (let i = 0; i < 5; i++) {
      await enqueueMail(database.db, { ...dutch, to: `shopper${i}@example.nl` }, clock);
    }
    const smtpOut = smtpTransport(server.url, from);
    let inHand!: () => void;
    const firstInHand = new Promise<void>((resolve) => {
      inHand = resolve;
    });
    let finish!: () => void;
    const mayFinish = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const held: MailTransport = {
      description: "a mail server the test holds up",
      async deliver(mail) {
        inHand();
        await mayFinish;
        await smtpOut.deliver(mail);
      },
      close: () => smtpOut.close(),
    };
    const stopping = sender(database, held, "stopping");
    stopping.start();
    await firstInHand;
    const stopped = stopping.stop();
    finish();
    await stopped;

    expect(server.received.map((m) => m.envelope.to[0])).toEqual(["shopper0@example.nl"]);
    const afterStop = await rows(database);
    expect(afterStop.filter((r) => r.sent_at !== null)).toHaveLength(1);
    // The rest of its batch is free at once, not only when the claim would have expired.
    expect(afterStop.every((r) => r.claimed_by === null && r.claimed_until === null)).toBe(true);
    // A stopped sender stays stopped, even when mail is queued and it is woken.
    stopping.wake();
    expect(await stopping.runOnce()).toEqual({ sent: 0, failed: 0 });

    expect(await sender(database, smtpTransport(server.url, from), "next").runOnce()).toEqual({
      sent: 4,
      failed: 0,
    });
    const recipients = server.received.flatMap((m) => m.envelope.to).sort();
    expect(recipients).toEqual(Array.from({ length: 5 }, (_, i) => `shopper${i}@example.nl`));
  });

  it("when started, delivers what is due at once and what is queued later when woken", async () => {
    const database = await open();
    const server = await smtp();
    clock = new Date();
    await enqueueMail(database.db, dutch, clock);
    const running = createMailSender({
      db: database.db,
      dialect: database.dialect,
      transport: smtpTransport(server.url, from),
      pollMs: 60_000,
      log: quiet,
    });
    cleanups.push(() => running.stop());
    running.start();
    await expect.poll(() => server.received.length, { timeout: 5000 }).toBe(1);

    await enqueueMail(database.db, german);
    running.wake();
    await expect.poll(() => server.received.length, { timeout: 5000 }).toBe(2);
    await running.stop();
    expect((await rows(database)).every((r) => r.sent_at !== null)).toBe(true);
  });

  it("without SMTP writes each mail as an .eml file, once per mail", async () => {
    const database = await open();
    const dir = join(mkdtempSync(join(tmpdir(), "shop-mail-")), "mail");
    clock = new Date("2026-04-20T10:00:00Z");
    const id = await enqueueMail(database.db, german, clock);
    const files = sender(database, fileTransport(dir, from));

    expect(await files.runOnce()).toEqual({ sent: 1, failed: 0 });
    const written = readdirSync(dir);
    expect(written).toEqual([`20260420100000-${String(id).padStart(6, "0")}-contact-copy.eml`]);
    const mail = parseMail(readFileSync(join(dir, written[0] as string), "utf8"));
    expect(mail.headers.get("to")).toBe("juergen@example.de");
    expect(mail.headers.get("subject")).toBe(german.subject);
    expect(mail.text.trim()).toBe(german.text);
    expect(await files.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it("sends no mail erased after it was claimed, and removes the file of one erased while it was written", async () => {
    const database = await open();
    const dir = join(mkdtempSync(join(tmpdir(), "shop-mail-")), "mail");
    clock = new Date("2026-04-20T10:00:00Z");
    const annas = { ...dutch, accountId: "account-anna" };
    const ids = [
      await enqueueMail(database.db, annas, clock),
      await enqueueMail(database.db, annas, clock),
      await enqueueMail(database.db, annas, clock),
    ];
    const files = fileTransport(dir, from);
    let deleted = false;
    // Anna deletes her account just as the first of her mails is being written.
    const racing: MailTransport = {
      ...files,
      async deliver(mail) {
        if (!deleted) {
          deleted = true;
          await eraseAccountMails(
            database.db,
            { accountId: "account-anna", orderIds: [], emailKey: "anna@example.nl" },
            clock,
          );
        }
        await files.deliver(mail);
      },
    };

    expect(await sender(database, racing).runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(readdirSync(dir)).toEqual([]);
    const [first, ...rest] = await rows(database);
    expect(first).toMatchObject({ id: expect.anything(), text_body: "", to_address: "" });
    expect(first?.sent_at).not.toBeNull();
    expect(rest.map((r) => [Number(r.id), r.sent_at, r.text_body])).toEqual([
      [ids[1], null, ""],
      [ids[2], null, ""],
    ]);
    // Parked: no later pass sends them either.
    advance(24 * 3_600_000);
    expect(await sender(database, files, "two").runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("parks a mail after its last attempt, keeping it and its error", async () => {
    const database = await open();
    clock = new Date("2026-04-20T10:00:00Z");
    await enqueueMail(database.db, dutch, clock);
    const failing: MailTransport = {
      description: "a server that refuses the address",
      deliver: async () => {
        throw new Error("550 mailbox unavailable");
      },
      close() {},
    };
    const parking = createMailSender({
      db: database.db,
      dialect: database.dialect,
      transport: failing,
      now: () => clock,
      log: quiet,
      maxAttempts: 2,
    });
    await parking.runOnce();
    advance(3_600_000);
    await parking.runOnce();
    const [row] = await rows(database);
    expect(row?.sent_at).toBeNull();
    expect(Number(row?.attempts)).toBe(2);
    expect(row?.last_error).toBe("gave up after 2 attempts: 550 mailbox unavailable");
    advance(365 * 86_400_000);
    expect(await parking.runOnce()).toEqual({ sent: 0, failed: 0 });
  });
});
