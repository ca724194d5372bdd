import { describe, expect, it } from "vitest";
import { subscriptionRepository } from "../../../server/store/subscription-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { confirmedSubscription } from "../../support/subscriptions.ts";

const at = new Date("2026-05-04T10:00:00Z");

describe.each(testDatabases())("subscriptions on $name", (target) => {
  const open = databasePerTest(target);

  it("paying makes it active for its first month, on the shop's calendar; a replay changes nothing, a second payment is refused", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const subscription = await confirmedSubscription(db, { email: "anna@example.nl" });
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
    const subscription = await confirmedSubscription(db, { email: "anna@example.nl" });
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

  it("unpaid after a day it expires, once; taken out again, it waits for payment with the new plan", async () => {
    const { db } = await open();
    const subscriptions = subscriptionRepository(db);
    const subscription = await confirmedSubscription(db, { email: "anna@example.nl" });
    const paidOne = await confirmedSubscription(db, { email: "bram@example.nl" });
    await subscriptions.applyEvent(paidOne.id, { type: "payment_paid", paymentId: "tr_bram" }, at);
    await db.updateTable("subscriptions").set({ created_at: at.toISOString() }).execute();
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

    const again = await subscriptions.startFor(
      db,
      { id: subscription.accountId as string, locale: "nl" },
      { planId: "premium", monthlyCents: 999, offer: undefined },
      "browser-b",
      dayLater,
      "NL",
    );
    expect(again).toMatchObject({
      kind: "waiting",
      subscription: {
        id: subscription.id,
        status: "awaiting_payment",
        planId: "premium",
        ownerId: "browser-b",
      },
    });
    expect((await subscriptions.transitionsOf(subscription.id)).map((t) => `${t.event}: ${t.to}`)).toEqual([
      "unpaid_expired: expired",
      "restarted: awaiting_payment",
    ]);
  });
});
