import { describe, expect, it } from "vitest";
import { orderNumber } from "../../../server/domain/order-number.ts";
import { hashPassword } from "../../../server/domain/password-hash.ts";
import { migrateToLatest, shopMigrator } from "../../../server/store/migrate.ts";
import { accountPaths, mainText, password, signIn } from "../../support/accounts.ts";
import { testShop } from "../../support/app.ts";
import { BrowserSession } from "../../support/browser-session.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { orderPageLink, orderRow } from "../../support/orders.ts";

/**
 * Migration 0019 (ADR 0094): the orders the sign-in before ADR 0089 moved into an account,
 * where the stored data tells them apart, are guest orders again; the rest stays as it is.
 */
describe.each(testDatabases({ migrate: false }))("orders the old sign-in moved, on $name", (target) => {
  const openDatabase = databasePerTest(target);
  const accountCreated = "2026-11-29T10:00:00.000Z";
  const before = "2026-11-29T09:00:00.000Z";
  const after = "2026-11-29T11:00:00.000Z";

  it("a guest's order placed before the account existed goes back to being a guest's, openable by its link and claimable; the account's own stay", async () => {
    const database = await openDatabase();
    const migrator = await shopMigrator(database);
    expect((await migrator.migrateTo("0018-outbox-owners-and-erasure")).error).toBeUndefined();
    const db = database.db;
    const account = async (id: string, email: string) =>
      db
        .insertInto("accounts")
        .values({
          id,
          email,
          email_key: email,
          name: id,
          password_hash: await hashPassword(password),
          locale: "nl",
          email_confirmed_at: accountCreated,
          owner_id: `owner-${id}`,
          cart_id: null,
          created_at: accountCreated,
          updated_at: accountCreated,
        })
        .execute();
    await account("mallory-account-0000000", "mallory@example.nl");
    await account("nina-account-000000000a", "nina@example.nl");
    const order = async (key: string, email: string, at: string, accountId: string) =>
      Number(
        (
          await db
            .insertInto("orders")
            .values({
              ...orderRow(key, `cart-${key}`),
              name: key,
              street: `Straat ${key}`,
              email,
              created_at: at,
              account_id: accountId,
            })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
    const mallory = "mallory-account-0000000";
    // Gerda ordered as a guest on the shared computer; Mallory's sign-up there took the order.
    const gerdas = await order("gerda", "gerda@example.nl", before, mallory);
    // Mallory's own: signed in, to her grandmother's address.
    const gift = await order("oma", "oma@example.nl", after, mallory);
    // "Bewaar je gegevens": the order's address is the account's.
    const own = await order("own", " Mallory@Example.nl", before, mallory);
    // Claimed through the link mailed to its address.
    const claimed = await order("kees", "kees@example.nl", before, mallory);
    await db
      .insertInto("account_tokens")
      .values({
        token_hash: "claim",
        account_id: mallory,
        purpose: "claim-order",
        new_email: null,
        created_at: after,
        used_at: after,
        order_id: claimed,
      })
      .execute();
    // An account that changed its address: its order may be from the address it had.
    const ninas = await order("nina", "nina-old@example.nl", before, "nina-account-000000000a");
    await db
      .insertInto("account_tokens")
      .values({
        token_hash: "change",
        account_id: "nina-account-000000000a",
        purpose: "change-email",
        new_email: "nina@example.nl",
        created_at: after,
        used_at: after,
        order_id: null,
      })
      .execute();
    const signup = (token: string, usedAt: string | null) => ({
      token_hash: token,
      email: `${token}@example.nl`,
      email_key: `${token}@example.nl`,
      name: token,
      plan_id: null,
      monthly_cents: null,
      offer_cents: null,
      offer_months: null,
      password_hash: "scrypt$x",
      locale: "nl",
      owner_id: `browser-of-${token}`,
      created_at: after,
      used_at: usedAt,
      subscription_id: null,
      order_id: null,
      account_id: null,
    });
    await db
      .insertInto("signups")
      .values([signup("waiting", null), signup("used", after)])
      .execute();

    // 0019 is the one under test; later migrations may follow it.
    expect((await migrateToLatest(database))[0]).toBe("0019-guest-orders-and-sign-up-owners");
    const owners = Object.fromEntries(
      (await db.selectFrom("orders").select(["id", "account_id"]).execute()).map((o) => [
        Number(o.id),
        o.account_id,
      ]),
    );
    expect(owners).toEqual({
      [gerdas]: null,
      [gift]: mallory,
      [own]: mallory,
      [claimed]: mallory,
      [ninas]: "nina-account-000000000a",
    });
    const signups = await db
      .selectFrom("signups")
      .select(["token_hash", "owner_id"])
      .orderBy("token_hash")
      .execute();
    expect(signups).toEqual([
      { token_hash: "used", owner_id: "browser-of-used" },
      { token_hash: "waiting", owner_id: null },
    ]);

    const shop = await testShop({ database: { ...database, close: async () => {} }, sleep: async () => {} });
    try {
      // Gerda's order opens by its own link, anywhere, and no longer in Mallory's account.
      const page = await new BrowserSession(shop.app).get(orderPageLink(gerdas));
      expect(page.statusCode).toBe(200);
      expect(mainText(page)).toContain("Straat gerda");
      const { browser } = await signIn(shop.app, "mallory@example.nl");
      const listed = mainText(await browser.get(accountPaths.nl.orders));
      expect(listed).not.toContain(orderNumber(gerdas));
      expect(listed).toContain(orderNumber(gift));
      expect((await browser.get(`/bestelling/${orderNumber(gerdas)}`)).statusCode).toBe(404);
      // Signed in on its page, the claim is offered, and asking mails the order's own address.
      const offered = await browser.get(orderPageLink(gerdas));
      expect(mainText(offered)).toContain("Deze bestelling staat niet in je account.");
      const claim = `/bestelling/${orderNumber(gerdas)}/aan-account-toevoegen?${orderPageLink(gerdas).split("?")[1]}`;
      expect((await browser.form(claim, {})).statusCode).toBe(303);
      const mailed = await db
        .selectFrom("outbox")
        .select("to_address")
        .where("kind", "=", "order-claim")
        .execute();
      expect(mailed).toEqual([{ to_address: "gerda@example.nl" }]);
    } finally {
      await shop.app.close();
    }
  });
});
