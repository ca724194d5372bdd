import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { migrateToLatest, shopMigrator } from "../../../server/store/migrate.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

/** Databases left at 0025, as a shop running before subscribers were asked where they live. */
const targets = testDatabases({ migrate: false });
const at = "2026-11-20T10:00:00.000Z";

describe.each(targets)("migration 0026 (a subscriber's country) on $name", (target) => {
  const openDatabase = databasePerTest(target);

  it("gives subscriptions and sign-ups for one the country of their language, an account's sign-up none", async () => {
    const database = await openDatabase();
    const migrator = await shopMigrator(database);
    expect((await migrator.migrateTo("0025-subscription-plan-changes")).error).toBeUndefined();
    const untyped = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const subscription = (id: string, locale: string) => ({
      id,
      plan_id: "plus",
      monthly_cents: 599,
      locale,
      status: "active",
      created_at: at,
    });
    await untyped
      .insertInto("subscriptions")
      .values([subscription("dutch", "nl"), subscription("german", "de")])
      .execute();
    const signup = (token: string, locale: string, plan: string | null) => ({
      token_hash: token,
      email: `${token}@example.nl`,
      email_key: `${token}@example.nl`,
      name: token,
      plan_id: plan,
      monthly_cents: plan ? 599 : null,
      password_hash: `scrypt$${token}`,
      locale,
      created_at: at,
    });
    await untyped
      .insertInto("signups")
      .values([
        signup("waiting-nl", "nl", "plus"),
        signup("waiting-de", "de", "plus"),
        signup("account", "de", null),
      ])
      .execute();

    await migrateToLatest(database);
    const countries = async (table: "subscriptions" | "signups", key: string) =>
      Object.fromEntries(
        (await untyped.selectFrom(table).select([key, "country"]).orderBy(key).execute()).map((row) => [
          row[key],
          row.country,
        ]),
      );
    expect(await countries("subscriptions", "id")).toEqual({ dutch: "NL", german: "DE" });
    expect(await countries("signups", "token_hash")).toEqual({
      account: null,
      "waiting-de": "DE",
      "waiting-nl": "NL",
    });

    expect((await migrator.migrateTo("0025-subscription-plan-changes")).error).toBeUndefined();
    const [row] = await untyped.selectFrom("subscriptions").selectAll().where("id", "=", "german").execute();
    expect(row).not.toHaveProperty("country");
    expect(row).toMatchObject({ locale: "de", status: "active" });
  });
});
