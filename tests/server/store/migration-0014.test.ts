import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest, shopMigrator } from "../../../server/store/migrate.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

/** Databases left at 0013, as a shop running before accounts would be. */
const targets = testDatabases({ migrate: false });
const at = "2026-11-20T10:00:00.000Z";

describe.each(targets)("migration 0014 (accounts) on $name", (target) => {
  const openDatabase = databasePerTest(target);

  it("makes every subscription an account as it is, keeps its payments and history, and can be taken back", async () => {
    const database = await openDatabase();
    const migrator = await shopMigrator(database);
    expect((await migrator.migrateTo("0013-subscription-payments")).error).toBeUndefined();
    const untyped = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const subscription = (id: string, email: string, status: string) => ({
      id,
      owner_id: `owner-${id}`,
      name: `Naam ${id}`,
      email,
      email_key: email.toLowerCase(),
      plan_id: "plus",
      monthly_cents: 599,
      offer_cents: null,
      offer_months: null,
      password_hash: `scrypt$${id}`,
      locale: "nl",
      created_at: at,
      status,
      paid_until: status === "active" ? "2026-12-19" : null,
    });
    await untyped
      .insertInto("subscriptions")
      .values([
        subscription("confirmed", "Anna@Example.nl", "active"),
        subscription("legacy", "bram@example.nl", "awaiting_payment"),
      ])
      .execute();
    // The first was made by a sign-up link; the second before links existed.
    await untyped
      .insertInto("subscription_signups")
      .values({
        token_hash: "h1",
        email: "Anna@Example.nl",
        email_key: "anna@example.nl",
        name: "Naam confirmed",
        plan_id: "plus",
        monthly_cents: 599,
        offer_cents: null,
        offer_months: null,
        password_hash: "scrypt$confirmed",
        locale: "nl",
        owner_id: null,
        created_at: at,
        used_at: at,
        subscription_id: "confirmed",
      })
      .execute();
    await untyped
      .insertInto("subscription_transitions")
      .values({
        subscription_id: "confirmed",
        from_status: "awaiting_payment",
        to_status: "active",
        event: "payment_paid",
        payment_id: "tp_1",
        at,
      })
      .execute();
    await untyped
      .insertInto("subscription_payments")
      .values({
        payment_id: "tp_1",
        subscription_id: "confirmed",
        provider: "test",
        attempt: 1,
        status: "paid",
        amount_cents: 599,
        checkout_url: "http://shop.test/testbetaling/tp_1",
        failure_mailed_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();

    expect(await migrateToLatest(database)).toContain("0014-accounts");
    const accounts = await untyped.selectFrom("accounts").selectAll().orderBy("email_key").execute();
    expect(accounts.map((a) => [a.email, a.name, a.password_hash, a.email_confirmed_at])).toEqual([
      ["Anna@Example.nl", "Naam confirmed", "scrypt$confirmed", at],
      ["bram@example.nl", "Naam legacy", "scrypt$legacy", null],
    ]);
    const subscriptions = await untyped.selectFrom("subscriptions").selectAll().orderBy("id").execute();
    expect(subscriptions.map((s) => [s.id, s.status, s.paid_until, s.account_id])).toEqual([
      ["confirmed", "active", "2026-12-19", accounts[0]?.id],
      ["legacy", "awaiting_payment", null, accounts[1]?.id],
    ]);
    expect(subscriptions[0]).not.toHaveProperty("password_hash");
    expect(await untyped.selectFrom("subscription_transitions").select("subscription_id").execute()).toEqual([
      { subscription_id: "confirmed" },
    ]);
    expect(await untyped.selectFrom("subscription_payments").select("payment_id").execute()).toEqual([
      { payment_id: "tp_1" },
    ]);
    expect(await untyped.selectFrom("signups").select("token_hash").execute()).toEqual([
      { token_hash: "h1" },
    ]);

    // Back to 0013, through its own way down: the subscriptions have their subscribers again.
    expect((await migrator.migrateTo("0013-subscription-payments")).error).toBeUndefined();
    const back = await untyped.selectFrom("subscriptions").selectAll().orderBy("id").execute();
    expect(back.map((s) => [s.id, s.email, s.password_hash, s.status])).toEqual([
      ["confirmed", "Anna@Example.nl", "scrypt$confirmed", "active"],
      ["legacy", "bram@example.nl", "scrypt$legacy", "awaiting_payment"],
    ]);
    expect(await untyped.selectFrom("subscription_payments").select("payment_id").execute()).toEqual([
      { payment_id: "tp_1" },
    ]);
    expect(await untyped.selectFrom("subscription_signups").select("token_hash").execute()).toEqual([
      { token_hash: "h1" },
    ]);
  });
});
