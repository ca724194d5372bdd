import { describe, expect, it } from "vitest";
import { enqueueMail } from "../../../server/mail/outbox.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

const mail = {
  kind: "contact-copy",
  locale: "nl" as const,
  to: "anna@example.nl",
  subject: "Je vraag aan Fotohoek",
  text: "Bedankt voor je vraag.",
};

describe.each(testDatabases())("the mail outbox on $name", (target) => {
  const open = databasePerTest(target);

  it("queues a mail, due at once and not yet sent", async () => {
    const { db } = await open();
    const at = new Date("2026-11-23T10:00:00Z");
    const id = await enqueueMail(db, mail, at);
    const row = await db.selectFrom("outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      kind: "contact-copy",
      to_address: "anna@example.nl",
      subject: "Je vraag aan Fotohoek",
      text_body: "Bedankt voor je vraag.",
      html_body: null,
      next_attempt_at: at.toISOString(),
      sent_at: null,
      claimed_by: null,
    });
    expect(Number(row.attempts)).toBe(0);
  });

  it("is written or dropped together with the transaction it belongs to", async () => {
    const { db } = await open();
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueueMail(trx, mail);
        throw new Error("the order could not be stored");
      }),
    ).rejects.toThrow("could not be stored");
    expect(await db.selectFrom("outbox").selectAll().execute()).toEqual([]);
  });

  it("refuses a header with a line break, so no header can be injected", async () => {
    const { db } = await open();
    await expect(enqueueMail(db, { ...mail, subject: "Hoi\r\nBcc: all@example.com" })).rejects.toThrow(
      /line breaks/,
    );
    await expect(enqueueMail(db, { ...mail, to: "a@example.nl\nBcc: b@example.com" })).rejects.toThrow();
    expect(await db.selectFrom("outbox").selectAll().execute()).toEqual([]);
  });
});
