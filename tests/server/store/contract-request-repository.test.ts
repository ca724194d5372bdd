import { describe, expect, it } from "vitest";
import type { ContractRequestInput } from "../../../server/domain/contract-requests.ts";
import { contractRequestRepository } from "../../../server/store/contract-request-repository.ts";
import { newLinkToken } from "../../../server/store/link-token.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { activeSubscription } from "../../support/subscriptions.ts";

const cancel: ContractRequestInput = {
  kind: "cancel",
  locale: "de",
  name: "Jürgen Groß",
  email: "Juergen@Example.test ",
  contractRef: "abc",
  notice: "extraordinary",
  reason: "Umzug",
  askedEndOn: "2026-12-10",
};
const at = new Date("2026-12-02T09:15:00Z");

describe.each(testDatabases())("cancellations and withdrawals from the public forms on $name", (target) => {
  const open = databasePerTest(target);

  it("keeps a request as received, finds it by its link's token only, and takes its outcome once", async () => {
    const { db } = await open();
    const requests = contractRequestRepository(db);
    const subscription = await activeSubscription(db, { email: "juergen@example.test" });
    const link = newLinkToken();
    const stored = await db
      .transaction()
      .execute((trx) =>
        requests.insert(
          trx,
          cancel,
          { subscriptionId: subscription.id, accountId: subscription.accountId },
          link.hash,
          at,
        ),
      );
    const found = await requests.byToken(link.token, "cancel");
    expect(found).toEqual({ ...stored, confirmedAt: undefined, outcome: undefined });
    expect(found).toMatchObject({ receivedAt: at.toISOString(), askedEndOn: "2026-12-10", reason: "Umzug" });
    // Of another kind, or a token never mailed: nothing.
    expect(await requests.byToken(link.token, "withdraw")).toBeUndefined();
    expect(await requests.byToken(newLinkToken().token, "cancel")).toBeUndefined();
    const stored_hashes = await db.selectFrom("contract_requests").select("token_hash").execute();
    expect(stored_hashes).toEqual([{ token_hash: link.hash }]);

    const later = new Date("2026-12-04T10:00:00Z");
    const [first, second] = await Promise.all([
      db.transaction().execute((trx) => requests.markConfirmed(trx, stored.id, later, '{"kind":"ended"}')),
      db.transaction().execute((trx) => requests.markConfirmed(trx, stored.id, later, '{"kind":"other"}')),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect((await requests.byToken(link.token, "cancel"))?.confirmedAt).toBe(later.toISOString());
  });

  it("counts an address's requests of a kind however it is typed, and they go with its account", async () => {
    const { db } = await open();
    const requests = contractRequestRepository(db);
    const subscription = await activeSubscription(db, { email: "juergen@example.test" });
    const found = { subscriptionId: subscription.id, accountId: subscription.accountId };
    await db.transaction().execute(async (trx) => {
      await requests.insert(trx, cancel, found, undefined, at);
      await requests.insert(trx, { ...cancel, email: "JUERGEN@example.test" }, found, undefined, at);
      await requests.insert(trx, { ...cancel, kind: "withdraw", notice: undefined }, found, undefined, at);
      await requests.insert(
        trx,
        { ...cancel, email: "other@example.test" },
        { subscriptionId: undefined, accountId: undefined },
        undefined,
        at,
      );
    });
    const since = new Date(at.getTime() - 1000);
    expect(await requests.countFrom(db, "cancel", "juergen@example.test", since)).toBe(2);
    expect(await requests.countFrom(db, "withdraw", "juergen@example.test", since)).toBe(1);
    expect(await requests.countFrom(db, "cancel", "juergen@example.test", at)).toBe(0);

    await db
      .deleteFrom("accounts")
      .where("id", "=", subscription.accountId as string)
      .execute();
    const left = await db.selectFrom("contract_requests").select("email").execute();
    expect(left).toEqual([{ email: "other@example.test" }]);
  });
});
