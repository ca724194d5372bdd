import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkPassword, verifyAndUpgrade } from "../../../server/domain/password-hash.ts";
import type { OutgoingMail } from "../../../server/mail/outbox.ts";
import {
  type NewSubscription,
  subscriptionRepository,
} from "../../../server/store/subscription-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

const password = "Zomer aan zee 2026!";

/** A hash as the shop stored it before the cost went up: N = 2^15, r = 8, p = 1. */
function oldHash(): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 15, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

const entry = (fields: Partial<NewSubscription> = {}): NewSubscription => ({
  ownerId: "owner-a",
  name: "Anna de Vries",
  email: "Anna@Example.nl",
  planId: "plus",
  monthlyCents: 599,
  offer: undefined,
  passwordHash: "scrypt$15$8$3$salt$hash",
  locale: "nl",
  ...fields,
});
const welcome: OutgoingMail = {
  kind: "subscription-welcome",
  locale: "nl",
  to: "Anna@Example.nl",
  subject: "Welkom",
  text: "Hallo",
};
const already = (address: string): OutgoingMail => ({
  kind: "subscription-already-subscribed",
  locale: "de",
  to: address,
  subject: "Anmeldeversuch",
  text: "Sie haben bereits ein Foto-Abo.",
});

describe.each(testDatabases())("subscriptions on $name", (target) => {
  const open = databasePerTest(target);

  it("a second sign-up with a known address stores nothing and mails the address as stored, once an hour", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const at = new Date("2026-05-04T10:00:00Z");
    expect(await subscriptions.create(entry(), welcome, at, already)).toBeDefined();
    const again = entry({ email: " anna@EXAMPLE.nl", name: "Iemand", ownerId: "owner-b" });
    expect(await subscriptions.create(again, { ...welcome, to: again.email }, at, already)).toBeUndefined();
    expect(
      await subscriptions.create(again, welcome, new Date(at.getTime() + 59 * 60_000), already),
    ).toBeUndefined();
    expect(
      await subscriptions.create(again, welcome, new Date(at.getTime() + 61 * 60_000), already),
    ).toBeUndefined();

    const rows = await db.selectFrom("subscriptions").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.name).toBe("Anna de Vries");
    const mails = await db.selectFrom("outbox").selectAll().orderBy("id").execute();
    expect(mails.map((m) => [m.kind, m.to_address, m.locale])).toEqual([
      ["subscription-welcome", "Anna@Example.nl", "nl"],
      ["subscription-already-subscribed", "Anna@Example.nl", "de"],
      ["subscription-already-subscribed", "Anna@Example.nl", "de"],
    ]);
  });

  it("a subscriber signing in with a hash below today's cost gets it replaced, and only then", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    await subscriptions.create(entry({ passwordHash: oldHash() }), welcome);
    const found = await subscriptions.findByEmail("ANNA@example.nl ");
    expect(found?.name).toBe("Anna de Vries");
    const stored = found?.passwordHash as string;

    const wrong = await verifyAndUpgrade("zomer aan zee 2026!", stored, (next) =>
      subscriptions.replacePasswordHash(found?.id as string, stored, next),
    );
    expect(wrong).toBe(false);
    expect((await subscriptions.findByEmail("anna@example.nl"))?.passwordHash).toBe(stored);

    const right = await verifyAndUpgrade(password, stored, (next) =>
      subscriptions.replacePasswordHash(found?.id as string, stored, next),
    );
    expect(right).toBe(true);
    const upgraded = (await subscriptions.findByEmail("anna@example.nl"))?.passwordHash as string;
    expect(upgraded).toMatch(/^scrypt\$15\$8\$3\$/);
    expect(await checkPassword(password, upgraded)).toEqual({ matches: true, needsRehash: false });
  });

  it("a new hash never overwrites a password that changed in the meantime", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const created = await subscriptions.create(entry({ passwordHash: "scrypt$first" }), welcome);
    const id = created?.id as string;
    expect(await subscriptions.replacePasswordHash(id, "scrypt$other", "scrypt$new")).toBe(false);
    expect(await subscriptions.replacePasswordHash(id, "scrypt$first", "scrypt$second")).toBe(true);
    expect((await subscriptions.findByEmail("anna@example.nl"))?.passwordHash).toBe("scrypt$second");
    expect(await subscriptions.findByEmail("nobody@example.nl")).toBeUndefined();
  });
});
