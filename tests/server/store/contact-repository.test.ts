import { describe, expect, it } from "vitest";
import { contactRepository } from "../../../server/store/contact-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

const message = {
  locale: "de" as const,
  name: "Jürgen Groß",
  email: "juergen@example.de",
  orderNumber: "FH-2026-0042",
  subject: "delivery",
  question: "Wann kommt mein Fotobuch?",
};
const received = new Date("2026-04-20T08:30:00Z");

describe.each(testDatabases())("the contact messages on $name", (target) => {
  const open = databasePerTest(target);

  it("stores a message and the mails about it together", async () => {
    const { db } = await open();
    const stored = await contactRepository(db).store(
      message,
      (m) => [
        { kind: "contact-copy", locale: m.locale, to: m.email, subject: `Kopie ${m.id}`, text: m.question },
        { kind: "contact-support", locale: m.locale, to: "service@example.nl", subject: "Frage", text: "…" },
      ],
      received,
    );
    expect(stored.id).toBeGreaterThan(0);
    const rows = await db.selectFrom("contact_messages").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      locale: "de",
      name: "Jürgen Groß",
      email: "juergen@example.de",
      order_number: "FH-2026-0042",
      subject: "delivery",
      question: "Wann kommt mein Fotobuch?",
      received_at: received.toISOString(),
    });
    const mails = await db
      .selectFrom("outbox")
      .select(["kind", "to_address", "subject", "created_at"])
      .orderBy("id")
      .execute();
    expect(mails).toEqual([
      {
        kind: "contact-copy",
        to_address: "juergen@example.de",
        subject: `Kopie ${stored.id}`,
        created_at: received.toISOString(),
      },
      {
        kind: "contact-support",
        to_address: "service@example.nl",
        subject: "Frage",
        created_at: received.toISOString(),
      },
    ]);
  });

  it("keeps nothing when a mail cannot be queued", async () => {
    const { db } = await open();
    await expect(
      contactRepository(db).store(message, () => [
        { kind: "contact-copy", locale: "de", to: "juergen@example.de", subject: "ok", text: "" },
        {
          kind: "contact-support",
          locale: "de",
          to: "x@example.nl",
          subject: "Hallo\r\nBcc: a@b.c",
          text: "",
        },
      ]),
    ).rejects.toThrow(/line breaks/);
    expect(await db.selectFrom("contact_messages").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("outbox").selectAll().execute()).toEqual([]);
  });

  it("stores no order number when none was given", async () => {
    const { db } = await open();
    await contactRepository(db).store({ ...message, orderNumber: undefined }, () => []);
    const [row] = await db.selectFrom("contact_messages").select("order_number").execute();
    expect(row?.order_number).toBeNull();
  });
});
