import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkPassword, verifyAndUpgrade } from "../../../server/domain/password-hash.ts";
import type { OutgoingMail } from "../../../server/mail/outbox.ts";
import {
  type NewSubscription,
  type SubscriptionRepository,
  signupMailsPerHour,
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
/** The link mail as the route composes it, the token in its text for the test to take. */
const confirmMail =
  (to = "Anna@Example.nl") =>
  (token: string): OutgoingMail => ({
    kind: "subscription-confirm",
    locale: "nl",
    to,
    subject: "Bevestig je aanmelding",
    text: `https://fotohoek.test/abonnement/bevestigen/${token}`,
  });
const already = (address: string): OutgoingMail => ({
  kind: "subscription-already-subscribed",
  locale: "de",
  to: address,
  subject: "Anmeldeversuch",
  text: "Sie haben bereits ein Foto-Abo.",
});

/** Signs up and returns the link's token, read from the mail the way its reader would. */
async function signUp(
  subscriptions: SubscriptionRepository,
  db: import("kysely").Kysely<import("../../../server/store/schema.ts").Schema>,
  fields: Partial<NewSubscription> = {},
  at = new Date("2026-05-04T10:00:00Z"),
): Promise<string | undefined> {
  const signup = entry(fields);
  await subscriptions.requestSignup(
    signup,
    { confirm: confirmMail(signup.email), alreadySubscribed: already },
    at,
  );
  const mail = await db
    .selectFrom("outbox")
    .select("text_body")
    .where("kind", "=", "subscription-confirm")
    .where("created_at", "=", at.toISOString())
    .orderBy("id", "desc")
    .executeTakeFirst();
  return mail?.text_body.split("/").pop();
}

/** A subscription whose address was confirmed: what the link's button makes. */
async function confirmed(
  subscriptions: SubscriptionRepository,
  db: Parameters<typeof signUp>[1],
  fields: Partial<NewSubscription> = {},
  at = new Date("2026-05-04T10:00:00Z"),
) {
  const token = (await signUp(subscriptions, db, fields, at)) as string;
  const result = await subscriptions.confirmSignup(token, "browser-a", new Date(at.getTime() + 60_000));
  if (result.kind !== "confirmed") throw new Error(`not confirmed: ${result.kind}`);
  return result.subscription;
}

describe.each(testDatabases())("subscriptions on $name", (target) => {
  const open = databasePerTest(target);

  it("a sign-up mails a link; only using it makes the subscription, once, for the browser that used it", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const at = new Date("2026-05-04T10:00:00Z");
    const token = (await signUp(subscriptions, db, {}, at)) as string;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(await db.selectFrom("subscriptions").selectAll().execute()).toEqual([]);
    // Only the token's hash is kept.
    const stored = await db.selectFrom("subscription_signups").selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).not.toContain(token);

    expect(await subscriptions.signupLink(token, at)).toEqual({
      state: "valid",
      signup: {
        name: "Anna de Vries",
        email: "Anna@Example.nl",
        planId: "plus",
        locale: "nl",
        monthlyCents: 599,
        offer: undefined,
      },
    });
    const result = await subscriptions.confirmSignup(token, "browser-b", new Date(at.getTime() + 5 * 60_000));
    expect(result.kind).toBe("confirmed");
    const subscription = result.kind === "confirmed" ? result.subscription : undefined;
    expect(subscription).toMatchObject({
      email: "Anna@Example.nl",
      status: "awaiting_payment",
      ownerId: "browser-b",
      paidUntil: undefined,
      createdAt: "2026-05-04T10:05:00.000Z",
    });
    const id = subscription?.id as string;
    expect(await subscriptions.signupLink(token, at)).toEqual({ state: "used", subscriptionId: id });
    expect(await subscriptions.confirmSignup(token, "browser-c", at)).toEqual({
      kind: "used",
      subscriptionId: id,
    });
    expect(await db.selectFrom("subscriptions").selectAll().execute()).toHaveLength(1);
  });

  it("a link works for a day; a tampered or unknown one opens nothing", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const at = new Date("2026-05-04T10:00:00Z");
    const token = (await signUp(subscriptions, db, {}, at)) as string;
    const dayLater = new Date(at.getTime() + 24 * 3_600_000);
    expect(await subscriptions.signupLink(token, dayLater)).toEqual({ state: "expired" });
    expect(await subscriptions.confirmSignup(token, "browser-a", dayLater)).toEqual({ kind: "expired" });
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(await subscriptions.signupLink(tampered, at)).toEqual({ state: "unknown" });
    expect(await subscriptions.confirmSignup(tampered, "browser-a", at)).toEqual({ kind: "unknown" });
    expect(await subscriptions.confirmSignup("../../etc/passwd", "browser-a", at)).toEqual({
      kind: "unknown",
    });
    expect(await db.selectFrom("subscriptions").selectAll().execute()).toEqual([]);
    // The clean-up takes links once their day is over.
    expect(await subscriptions.deleteSignupsBefore(new Date(at.getTime() - 1))).toBe(0);
    expect(await subscriptions.deleteSignupsBefore(dayLater)).toBe(1);
  });

  it("an address with an active subscription gets no link, but one mail an hour saying so, to the address as stored", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const at = new Date("2026-05-04T10:00:00Z");
    const subscription = await confirmed(subscriptions, db, {}, at);
    await subscriptions.applyEvent(subscription.id, { type: "payment_paid", paymentId: "tr_1" }, at);
    const again = { email: " anna@EXAMPLE.nl", name: "Iemand", ownerId: "owner-b" };
    for (const minutes of [1, 59, 62]) {
      expect(
        await signUp(subscriptions, db, again, new Date(at.getTime() + minutes * 60_000)),
      ).toBeUndefined();
    }
    const mails = await db.selectFrom("outbox").selectAll().orderBy("id").execute();
    expect(mails.map((m) => [m.kind, m.to_address])).toEqual([
      ["subscription-confirm", "Anna@Example.nl"],
      ["subscription-already-subscribed", "Anna@Example.nl"],
      ["subscription-already-subscribed", "Anna@Example.nl"],
    ]);
    expect(await db.selectFrom("subscription_signups").select("token_hash").execute()).toHaveLength(1);
    expect((await subscriptions.get(subscription.id))?.name).toBe("Anna de Vries");
  });

  it(`mails at most ${signupMailsPerHour} links an hour to one address, however it is typed`, async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const at = new Date("2026-05-04T10:00:00Z");
    const tokens = [];
    for (let i = 0; i < signupMailsPerHour + 2; i++) {
      const typed = i % 2 ? "ANNA@example.nl" : "anna@example.nl ";
      tokens.push(await signUp(subscriptions, db, { email: typed }, new Date(at.getTime() + i * 1000)));
    }
    expect(tokens.filter(Boolean)).toHaveLength(signupMailsPerHour);
    const later = new Date(at.getTime() + 61 * 60_000);
    expect(await signUp(subscriptions, db, {}, later)).toBeDefined();
  });

  it("paying makes it active for its first month, on the shop's calendar; a replay changes nothing, a second payment is refused", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const subscription = await confirmed(subscriptions, db);
    // 31 January 23:30 UTC is 1 February in Amsterdam: paid until 28 February.
    const paidAt = new Date("2027-01-31T23:30:00Z");
    const mailed: string[] = [];
    const afterChange = async (_trx: unknown, changed: { paidUntil?: string }, change: { to: string }) => {
      mailed.push(`${change.to} until ${changed.paidUntil}`);
    };
    const paid = { type: "payment_paid" as const, paymentId: "tr_first" };
    expect(await subscriptions.applyEvent(subscription.id, paid, paidAt, { afterChange })).toEqual({
      kind: "changed",
      from: "awaiting_payment",
      to: "active",
    });
    expect(await subscriptions.applyEvent(subscription.id, paid, paidAt, { afterChange })).toEqual({
      kind: "unchanged",
      status: "active",
    });
    const second = await subscriptions.applyEvent(
      subscription.id,
      { ...paid, paymentId: "tr_second" },
      paidAt,
    );
    expect(second.kind).toBe("refused");
    expect(mailed).toEqual(["active until 2027-02-28"]);
    expect(await subscriptions.get(subscription.id)).toMatchObject({
      status: "active",
      paidUntil: "2027-02-28",
    });
    expect(await subscriptions.transitionsOf(subscription.id)).toEqual([
      {
        from: "awaiting_payment",
        to: "active",
        event: "payment_paid",
        paymentId: "tr_first",
        at: paidAt.toISOString(),
      },
    ]);
  });

  it("fifty payments at once for one subscription make one change and one mail", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const subscription = await confirmed(subscriptions, db);
    let mails = 0;
    const paid = { type: "payment_paid" as const, paymentId: "tr_first" };
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        subscriptions.applyEvent(subscription.id, paid, new Date(), {
          afterChange: async () => {
            mails++;
          },
        }),
      ),
    );
    expect(results.filter((r) => r.kind === "changed")).toHaveLength(1);
    expect(mails).toBe(1);
    expect(await subscriptions.transitionsOf(subscription.id)).toHaveLength(1);
  });

  it("unpaid after a day it expires, once; a new confirmed sign-up starts it again with the new plan", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const at = new Date("2026-05-04T10:00:00Z");
    const subscription = await confirmed(subscriptions, db, {}, at);
    const paidOne = await confirmed(subscriptions, db, { email: "bram@example.nl" }, at);
    await subscriptions.applyEvent(paidOne.id, { type: "payment_paid", paymentId: "tr_bram" }, at);
    const dayLater = new Date(at.getTime() + 24 * 3_600_000 + 120_000);
    let mailed = 0;
    const afterChange = async () => {
      mailed++;
    };
    expect(await subscriptions.expireUnpaid(new Date(at.getTime() - 1), { at: dayLater, afterChange })).toBe(
      0,
    );
    expect(
      await subscriptions.expireUnpaid(new Date(dayLater.getTime() - 24 * 3_600_000), {
        at: dayLater,
        afterChange,
      }),
    ).toBe(1);
    expect(await subscriptions.expireUnpaid(dayLater, { at: dayLater, afterChange })).toBe(0);
    expect(mailed).toBe(1);
    expect((await subscriptions.get(subscription.id))?.status).toBe("expired");
    expect((await subscriptions.get(paidOne.id))?.status).toBe("active");

    const again = await confirmed(
      subscriptions,
      db,
      { planId: "premium", monthlyCents: 999, name: "Anna" },
      dayLater,
    );
    expect(again).toMatchObject({
      id: subscription.id,
      status: "awaiting_payment",
      planId: "premium",
      name: "Anna",
    });
    expect((await subscriptions.transitionsOf(subscription.id)).map((t) => `${t.event}: ${t.to}`)).toEqual([
      "unpaid_expired: expired",
      "restarted: awaiting_payment",
    ]);
  });

  it("two links for one new address used at the same moment make one subscription", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const at = new Date("2026-05-04T10:00:00Z");
    const first = (await signUp(subscriptions, db, {}, at)) as string;
    const second = (await signUp(
      subscriptions,
      db,
      { planId: "premium" },
      new Date(at.getTime() + 1000),
    )) as string;
    const results = await Promise.all([
      subscriptions.confirmSignup(first, "browser-a", new Date(at.getTime() + 5000)),
      subscriptions.confirmSignup(second, "browser-b", new Date(at.getTime() + 5000)),
    ]);
    expect(results.map((r) => r.kind)).toEqual(["confirmed", "confirmed"]);
    expect(await db.selectFrom("subscriptions").selectAll().execute()).toHaveLength(1);
  });

  it("a subscriber signing in with a hash below today's cost gets it replaced, and only then", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    await confirmed(subscriptions, db, { passwordHash: oldHash() });
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
    const created = await confirmed(subscriptions, db, { passwordHash: "scrypt$first" });
    const id = created?.id as string;
    expect(await subscriptions.replacePasswordHash(id, "scrypt$other", "scrypt$new")).toBe(false);
    expect(await subscriptions.replacePasswordHash(id, "scrypt$first", "scrypt$second")).toBe(true);
    expect((await subscriptions.findByEmail("anna@example.nl"))?.passwordHash).toBe("scrypt$second");
    expect(await subscriptions.findByEmail("nobody@example.nl")).toBeUndefined();
  });
});
