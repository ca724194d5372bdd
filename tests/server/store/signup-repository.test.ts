import { randomBytes, scryptSync } from "node:crypto";
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { checkPassword, verifyAndUpgrade } from "../../../server/domain/password-hash.ts";
import type { OutgoingMail } from "../../../server/mail/outbox.ts";
import { accountRepository } from "../../../server/store/account-repository.ts";
import type { Schema } from "../../../server/store/schema.ts";
import {
  type NewSignup,
  type SignupRepository,
  signupMailsPerHour,
  signupRepository,
} from "../../../server/store/signup-repository.ts";
import { subscriptionRepository } from "../../../server/store/subscription-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { orderRow } from "../../support/orders.ts";

const password = "Zomer aan zee 2026!";
const plus = { planId: "plus", monthlyCents: 599, offer: undefined, country: "NL" as const };

/** A hash as the shop stored it before the cost went up: N = 2^15, r = 8, p = 1. */
function oldHash(): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 15, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
}

const entry = (fields: Partial<NewSignup> = {}): NewSignup => ({
  ownerId: "owner-a",
  name: "Anna de Vries",
  email: "Anna@Example.nl",
  plan: plus,
  passwordHash: "scrypt$15$8$3$salt$hash",
  locale: "nl",
  ...fields,
});

/** The link mail as the routes compose it, the token in its text for the test to take. */
const mails = (to: string) => ({
  confirm: (token: string): OutgoingMail => ({
    kind: "signup-link",
    locale: "nl",
    to,
    subject: "Bevestig je aanmelding",
    text: `https://fotohoek.test/bevestigen/${token}`,
  }),
  alreadyKnown: (address: string): OutgoingMail => ({
    kind: "already-known",
    locale: "de",
    to: address,
    subject: "Anmeldeversuch",
    text: "Sie haben bereits ein Konto.",
  }),
});

const start = new Date("2026-05-04T10:00:00Z");
const later = (minutes: number) => new Date(start.getTime() + minutes * 60_000);

function repositories(db: Kysely<Schema>) {
  const subscriptions = subscriptionRepository(db);
  return { subscriptions, signups: signupRepository(db, subscriptions), accounts: accountRepository(db) };
}

/** Signs up and returns the link's token, read from the mail the way its reader would. */
async function signUp(
  signups: SignupRepository,
  db: Kysely<Schema>,
  fields: Partial<NewSignup> = {},
  at = start,
): Promise<string | undefined> {
  const signup = entry(fields);
  await signups.request(signup, mails(signup.email), at);
  const mail = await db
    .selectFrom("outbox")
    .select("text_body")
    .where("kind", "=", "signup-link")
    .where("created_at", "=", at.toISOString())
    .orderBy("id", "desc")
    .executeTakeFirst();
  return mail?.text_body.split("/").pop();
}

describe.each(testDatabases())("sign-ups on $name", (target) => {
  const open = databasePerTest(target);

  it("a sign-up mails a link; only using it makes the account and the subscription, for the browser that used it", async () => {
    const { db } = await open();
    const { signups } = repositories(db);
    const token = (await signUp(signups, db)) as string;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(await db.selectFrom("accounts").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("subscriptions").selectAll().execute()).toEqual([]);
    // Only the token's hash is kept.
    const stored = await db.selectFrom("signups").selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).not.toContain(token);

    expect(await signups.link(token, start)).toEqual({
      state: "valid",
      signup: { name: "Anna de Vries", email: "Anna@Example.nl", locale: "nl", plan: plus },
    });
    const result = await signups.confirm(token, later(5));
    if (result.kind !== "confirmed") throw new Error(result.kind);
    expect(result.newAccount).toBe(true);
    expect(result.account).toMatchObject({
      email: "Anna@Example.nl",
      name: "Anna de Vries",
      emailConfirmedAt: later(5).toISOString(),
    });
    // An owner id of its own: never the sign-up's shopper id, which its browser holds as a guest.
    expect(result.account.ownerId).toMatch(/^[\w-]{22}$/);
    expect(result.account.ownerId).not.toBe("owner-a");
    expect(result.subscription).toMatchObject({
      accountId: result.account.id,
      email: "Anna@Example.nl",
      status: "awaiting_payment",
      ownerId: result.account.ownerId,
      createdAt: later(5).toISOString(),
    });
    const used = { accountId: result.account.id, subscriptionId: result.subscription?.id };
    expect(await signups.link(token, start)).toEqual({ state: "used", ...used });
    expect(await signups.confirm(token, start)).toEqual({ kind: "used", ...used });
    expect(await db.selectFrom("subscriptions").selectAll().execute()).toHaveLength(1);
  });

  it("a link works for a day; a tampered or unknown one opens nothing", async () => {
    const { db } = await open();
    const { signups } = repositories(db);
    const token = (await signUp(signups, db)) as string;
    const dayLater = later(24 * 60);
    expect(await signups.link(token, dayLater)).toEqual({ state: "expired" });
    expect(await signups.confirm(token, dayLater)).toEqual({ kind: "expired" });
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(await signups.link(tampered, start)).toEqual({ state: "unknown" });
    expect(await signups.confirm(tampered, start)).toEqual({ kind: "unknown" });
    expect(await signups.confirm("../../etc/passwd", start)).toEqual({ kind: "unknown" });
    expect(await db.selectFrom("accounts").selectAll().execute()).toEqual([]);
    // The clean-up takes links once their day is over.
    expect(await signups.deleteBefore(new Date(start.getTime() - 1))).toBe(0);
    expect(await signups.deleteBefore(dayLater)).toBe(1);
  });

  it("an address with an active subscription gets no link, but one mail an hour saying so, to the address as stored", async () => {
    const { db } = await open();
    const { signups, subscriptions } = repositories(db);
    const first = await signups.confirm((await signUp(signups, db)) as string, start);
    if (first.kind !== "confirmed" || !first.subscription) throw new Error(first.kind);
    await subscriptions.applyEvent(first.subscription.id, { type: "payment_paid", paymentId: "tr_1" }, start);
    const again = { email: " anna@EXAMPLE.nl", name: "Iemand", ownerId: "owner-b" };
    for (const minutes of [1, 59, 62])
      expect(await signUp(signups, db, again, later(minutes))).toBeUndefined();
    const outbox = await db.selectFrom("outbox").selectAll().orderBy("id").execute();
    expect(outbox.map((m) => [m.kind, m.to_address])).toEqual([
      ["signup-link", "Anna@Example.nl"],
      ["already-known", "Anna@Example.nl"],
      ["already-known", "Anna@Example.nl"],
    ]);
    expect(await db.selectFrom("signups").select("token_hash").execute()).toHaveLength(1);
  });

  it("an address with an account gets no link for another account, only the mail saying so", async () => {
    const { db } = await open();
    const { signups } = repositories(db);
    await signups.confirm((await signUp(signups, db, { plan: undefined })) as string, start);
    expect(await signUp(signups, db, { plan: undefined, name: "Iemand" }, later(1))).toBeUndefined();
    const outbox = await db.selectFrom("outbox").select("kind").orderBy("id").execute();
    expect(outbox.map((m) => m.kind)).toEqual(["signup-link", "already-known"]);
    // A subscription sign-up for that account still gets its link: it joins the account.
    expect(await signUp(signups, db, {}, later(2))).toBeDefined();
  });

  it(`mails at most ${signupMailsPerHour} links an hour to one address, however it is typed`, async () => {
    const { db } = await open();
    const { signups } = repositories(db);
    const tokens = [];
    for (let i = 0; i < signupMailsPerHour + 2; i++) {
      const typed = i % 2 ? "ANNA@example.nl" : "anna@example.nl ";
      tokens.push(await signUp(signups, db, { email: typed }, new Date(start.getTime() + i * 1000)));
    }
    expect(tokens.filter(Boolean)).toHaveLength(signupMailsPerHour);
    expect(await signUp(signups, db, {}, later(61))).toBeDefined();
  });

  it("confirming for an address that already has an account joins it: its password stays, the subscription is its", async () => {
    const { db } = await open();
    const { signups } = repositories(db);
    const first = await signups.confirm(
      (await signUp(signups, db, { plan: undefined, passwordHash: "scrypt$first" })) as string,
      start,
    );
    if (first.kind !== "confirmed") throw new Error(first.kind);
    const second = await signups.confirm(
      (await signUp(signups, db, { passwordHash: "scrypt$second", name: "A. de Vries" }, later(1))) as string,
      later(2),
    );
    if (second.kind !== "confirmed") throw new Error(second.kind);
    expect(second.newAccount).toBe(false);
    expect(second.account).toMatchObject({
      id: first.account.id,
      passwordHash: "scrypt$first",
      name: "Anna de Vries",
    });
    expect(second.subscription?.accountId).toBe(first.account.id);
  });

  it("an account never confirmed (from before links) takes the confirmed sign-up's password, and loses its sessions", async () => {
    const { db } = await open();
    const { signups, accounts } = repositories(db);
    await db
      .insertInto("accounts")
      .values({
        id: "legacy-account-000000000",
        email: "anna@example.nl",
        email_key: "anna@example.nl",
        name: "Iemand Anders",
        password_hash: "scrypt$strangers",
        locale: "nl",
        email_confirmed_at: null,
        owner_id: "legacy-owner",
        cart_id: null,
        created_at: start.toISOString(),
        updated_at: start.toISOString(),
      })
      .execute();
    await db
      .insertInto("sessions")
      .values({
        token_hash: "h",
        account_id: "legacy-account-000000000",
        created_at: start.toISOString(),
        last_seen_at: start.toISOString(),
        expires_at: later(60).toISOString(),
      })
      .execute();
    // Not yet known: its address was never confirmed, so a sign-up gets a link.
    const token = (await signUp(
      signups,
      db,
      { plan: undefined, passwordHash: "scrypt$owners" },
      later(1),
    )) as string;
    const result = await signups.confirm(token, later(2));
    if (result.kind !== "confirmed") throw new Error(result.kind);
    expect(result.account).toMatchObject({ passwordHash: "scrypt$owners", name: "Anna de Vries" });
    expect(result.account.emailConfirmedAt).toBe(later(2).toISOString());
    expect(await db.selectFrom("sessions").selectAll().execute()).toEqual([]);
    expect((await accounts.findByEmail("ANNA@example.nl"))?.id).toBe("legacy-account-000000000");
  });

  it("a sign-up from an order's page keeps the order's address and brings the order to the account", async () => {
    const { db } = await open();
    const { signups } = repositories(db);
    const order = await db
      .insertInto("orders")
      .values({ ...orderRow("key-save-details", "cart-anna"), email: "anna@example.nl" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = (await signUp(
      signups,
      db,
      { plan: undefined, email: "anna@example.nl", orderId: Number(order.id) },
      start,
    )) as string;
    expect(await signups.link(token, start)).toMatchObject({
      state: "valid",
      signup: { orderId: Number(order.id) },
    });
    const result = await signups.confirm(token, later(1));
    if (result.kind !== "confirmed") throw new Error(result.kind);
    const [row] = await db.selectFrom("orders").select("account_id").where("id", "=", order.id).execute();
    expect(row?.account_id).toBe(result.account.id);
    const saved = await db
      .selectFrom("addresses")
      .selectAll()
      .where("account_id", "=", result.account.id)
      .execute();
    expect(saved.map((a) => [a.street, a.city])).toEqual([
      [orderRow("x", "y").street, orderRow("x", "y").city],
    ]);
  });

  it("two links for one new address used at the same moment make one account and one subscription", async () => {
    const { db } = await open();
    const { signups } = repositories(db);
    const first = (await signUp(signups, db, {}, start)) as string;
    const second = (await signUp(signups, db, { plan: { ...plus, planId: "premium" } }, later(1))) as string;
    const results = await Promise.all([signups.confirm(first, later(2)), signups.confirm(second, later(2))]);
    expect(results.map((r) => r.kind)).toEqual(["confirmed", "confirmed"]);
    expect(await db.selectFrom("accounts").selectAll().execute()).toHaveLength(1);
    expect(await db.selectFrom("subscriptions").selectAll().execute()).toHaveLength(1);
  });

  it("an account signing in with a hash below today's cost gets it replaced, and only then", async () => {
    const { db } = await open();
    const { signups, accounts } = repositories(db);
    await signups.confirm((await signUp(signups, db, { passwordHash: oldHash() })) as string, start);
    const found = await accounts.findByEmail("ANNA@example.nl ");
    const stored = found?.passwordHash as string;
    const upgrade = (next: string) => accounts.replacePasswordHash(found?.id as string, stored, next);
    expect(await verifyAndUpgrade("zomer aan zee 2026!", stored, upgrade)).toBe(false);
    expect((await accounts.findByEmail("anna@example.nl"))?.passwordHash).toBe(stored);
    expect(await verifyAndUpgrade(password, stored, upgrade)).toBe(true);
    const upgraded = (await accounts.findByEmail("anna@example.nl"))?.passwordHash as string;
    expect(upgraded).toMatch(/^scrypt\$15\$8\$3\$/);
    expect(await checkPassword(password, upgraded)).toEqual({ matches: true, needsRehash: false });
    // A new hash never overwrites a password changed in the meantime.
    expect(await accounts.replacePasswordHash(found?.id as string, stored, "scrypt$other")).toBe(false);
  });
});
