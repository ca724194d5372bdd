import { describe, expect, it } from "vitest";
import { defaultSessionLifetimes } from "../../../server/domain/session-rules.ts";
import { accountRepository } from "../../../server/store/account-repository.ts";
import { addressBookRepository } from "../../../server/store/address-book-repository.ts";
import type { Schema } from "../../../server/store/schema.ts";
import { sessionRepository } from "../../../server/store/session-repository.ts";
import { subscriptionRepository } from "../../../server/store/subscription-repository.ts";
import { annasAddress } from "../../support/accounts.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { orderRow } from "../../support/orders.ts";

const start = new Date("2026-11-23T10:00:00Z");
const later = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
const address = { ...annasAddress, country: "NL" } as const;

const accountRow = (id: string): Schema["accounts"] => ({
  id,
  email: `${id}@example.nl`,
  email_key: `${id}@example.nl`,
  name: "Anna de Vries",
  password_hash: "scrypt$anna",
  locale: "nl",
  email_confirmed_at: start.toISOString(),
  owner_id: `owner-${id}`,
  cart_id: null,
  created_at: start.toISOString(),
  updated_at: start.toISOString(),
});

/**
 * The account's pages are kept per account revision (page-shows.ts), so every change
 * they can show, and the end of any of its sessions, must raise it: the database's own
 * triggers (migration 0016), whatever code makes the change, on whichever instance.
 */
describe.each(testDatabases())("an account's revision on $name", (target) => {
  const open = databasePerTest(target);

  it("rises with every change its pages show and every session that ends, and with no other account's", async () => {
    const { db } = await open();
    const accounts = accountRepository(db);
    const sessions = sessionRepository(db, defaultSessionLifetimes);
    const addresses = addressBookRepository(db);
    const subscriptions = subscriptionRepository(db);
    await db
      .insertInto("accounts")
      .values([accountRow("anna"), accountRow("bert")])
      .execute();
    expect(await accounts.revision("anna")).toBe(0);

    let last = 0;
    const rises = async (what: string) => {
      const now = await accounts.revision("anna");
      expect(now, what).toBeGreaterThan(last);
      last = now;
    };
    const stays = async (what: string) => expect(await accounts.revision("anna"), what).toBe(last);

    const kept = await sessions.start(db, "anna", start);
    const other = await sessions.start(db, "anna", start);
    await stays("a session started");
    // Its last use is written every few minutes: nothing a page shows.
    expect((await sessions.resolve(kept.token, later(10)))?.accountRevision).toBe(last);
    await stays("a session's last use written");

    await db.updateTable("accounts").set({ name: "Anna Bakker" }).where("id", "=", "anna").execute();
    await rises("the name changed");
    const id = await addresses.save(db, "anna", address, later(1));
    await rises("an address saved");
    await addresses.update("anna", id, { ...address, street: "Kerkplein 1" }, later(2));
    await rises("an address changed");
    await addresses.remove("anna", id);
    await rises("an address removed");

    const order = await db
      .insertInto("orders")
      .values({ ...orderRow("key-1", "cart-1"), account_id: "anna" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await rises("an order placed");
    await db.updateTable("orders").set({ status: "paid" }).where("id", "=", order.id).execute();
    await rises("an order paid");

    const plan = { planId: "plus", monthlyCents: 999, offer: undefined };
    const started = await subscriptions.startFor(
      db,
      { id: "anna", locale: "nl" },
      plan,
      "owner-anna",
      later(3),
      "NL",
    );
    await rises("a subscription taken out");
    expect(started.kind).toBe("waiting");
    await subscriptions.applyEvent(started.subscription.id, { type: "cancelled" }, later(4));
    await rises("the subscription cancelled");

    await sessions.end(other.tokenHash);
    await rises("a session ended elsewhere");
    // The session read with the revision in one statement: the two always belong together.
    expect((await sessions.resolve(kept.token, later(20)))?.accountRevision).toBe(last);

    await sessions.start(db, "bert", start);
    await addresses.save(db, "bert", address, later(5));
    await db
      .insertInto("orders")
      .values({ ...orderRow("key-2", "cart-2"), account_id: "bert" })
      .execute();
    await sessions.endAll("bert");
    await stays("another account's changes");

    await db.deleteFrom("accounts").where("id", "=", "anna").execute();
    await rises("the account deleted");
  });
});
