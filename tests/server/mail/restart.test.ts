import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createMailSender, type MailSender } from "../../../server/mail/sender.ts";
import { smtpTransport } from "../../../server/mail/transport.ts";
import { type Database, openDatabase } from "../../../server/store/database.ts";
import { migrateToLatest } from "../../../server/store/migrate.ts";
import { type TestShop, testShop } from "../../support/app.ts";
import { shopper } from "../../support/shopper.ts";
import { startSmtpServer } from "../../support/smtp.ts";

const quiet = { info() {}, warn() {}, error() {} };
const supportEmail = "service@example.nl";

/**
 * A database that outlives the shop: each open() is a fresh connection to the same data,
 * as a restarted process gets. A SQLite file always; PostgreSQL too when TEST_DATABASE_URL is set.
 */
interface LastingDatabase {
  name: string;
  prepare(): Promise<{ open(): Database; cleanup(): Promise<void> }>;
}

const targets: LastingDatabase[] = [
  {
    name: "sqlite",
    async prepare() {
      const url = `sqlite:${join(mkdtempSync(join(tmpdir(), "shop-restart-")), "shop.db")}`;
      return { open: () => openDatabase(url), cleanup: async () => {} };
    },
  },
];
const postgresUrl = process.env.TEST_DATABASE_URL;
if (postgresUrl) {
  targets.push({
    name: "postgres",
    async prepare() {
      const schema = `test_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      return {
        open: () => openDatabase(postgresUrl, { schema }),
        async cleanup() {
          await admin.query(`drop schema ${schema} cascade`);
          await admin.end();
        },
      };
    },
  });
}

describe.each(targets)("the contact form's mail across a restart, on $name", (target) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The shop as main.ts runs it: the app, and a sender that the app wakes when mail is queued. */
  async function startShop(
    database: Database,
    smtpUrl: string,
  ): Promise<{ shop: TestShop; sender: MailSender }> {
    let sender: MailSender | undefined;
    const shop = await testShop({
      database,
      env: { SUPPORT_EMAIL: supportEmail },
      mailQueued: () => sender?.wake(),
    });
    sender = createMailSender({
      db: database.db,
      dialect: database.dialect,
      transport: smtpTransport(smtpUrl, "Fotohoek <klantenservice@fotohoek.nl>"),
      // Polls rarely, so every attempt here is one the test caused; due again at once after a failure.
      pollMs: 60_000,
      backoff: () => 0,
      log: quiet,
    });
    sender.start();
    return { shop, sender };
  }

  /** Stops it as main.ts does on SIGTERM: requests and sender, then the database. */
  async function stopShop({ shop, sender }: { shop: TestShop; sender: MailSender }): Promise<void> {
    await sender.stop();
    await shop.close();
  }

  it("queues the mail while the mail server is down, keeps it through the restart, and sends it exactly once after", async () => {
    const storage = await target.prepare();
    cleanups.push(storage.cleanup);
    const smtp = await startSmtpServer();
    const port = smtp.port;
    await smtp.close();

    const firstDatabase = storage.open();
    await migrateToLatest(firstDatabase);
    const first = await startShop(firstDatabase, `smtp://127.0.0.1:${port}`);
    cleanups.push(() => stopShop(first));
    const anna = await shopper(first.shop.app, "/klantenservice/contact");
    const sent = await anna.post("/klantenservice/contact", {
      name: "Anna de Vries",
      email: "anna@example.nl",
      orderNumber: "",
      subject: "order",
      question: "Waar blijft mijn fotoboek? Ik heb het vorige week besteld.",
      website: "",
    });
    expect(sent.statusCode).toBe(303);
    const outbox = (database: Database) =>
      database.db.selectFrom("outbox").selectAll().orderBy("id").execute();
    // The sender was woken by the post and tried both mails; the server refused the connection.
    // A wake that arrives while the start-up pass is still reading the outbox runs one more pass
    // (failed mails are due again at once here), so a mail may have been tried twice by now.
    await expect
      .poll(async () => (await outbox(firstDatabase)).every((m) => Number(m.attempts) >= 1 && !m.sent_at), {
        timeout: 10_000,
      })
      .toBe(true);
    await stopShop(first);
    cleanups.pop();

    const up = await startSmtpServer(port);
    cleanups.push(() => up.close());
    const secondDatabase = storage.open();
    const triedBefore = (await outbox(secondDatabase)).map((m) => Number(m.attempts));
    expect(triedBefore).toHaveLength(2);
    const second = await startShop(secondDatabase, up.url);
    cleanups.push(() => stopShop(second));
    await expect.poll(() => up.received.length, { timeout: 10_000 }).toBe(2);
    // The sender records a mail as sent after the server took it: the server may have both
    // while the second's row is still being written.
    await expect
      .poll(
        async () => (await outbox(secondDatabase)).every((m) => m.sent_at !== null && m.claimed_by === null),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    const rows = await outbox(secondDatabase);
    await stopShop(second);
    cleanups.pop();

    // Once the restarted shop has stopped nothing more can arrive: each mail came exactly once.
    expect(up.received.map((m) => m.envelope.to[0]).sort()).toEqual(["anna@example.nl", supportEmail]);
    // Sent on the first try after the restart: one attempt more than before it, never two.
    expect(rows.map((r) => [r.sent_at !== null, Number(r.attempts), r.claimed_by])).toEqual(
      triedBefore.map((tries) => [true, tries + 1, null]),
    );
    expect(up.received.find((m) => m.envelope.to[0] === "anna@example.nl")?.headers.get("subject")).toBe(
      "Je vraag aan Fotohoek: Mijn bestelling",
    );
  });
});
