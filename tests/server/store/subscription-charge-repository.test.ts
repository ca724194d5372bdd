import { describe, expect, it } from "vitest";
import { subscriptionChargeRepository } from "../../../server/store/subscription-charge-repository.ts";
import { subscriptionRepository } from "../../../server/store/subscription-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { confirmedSubscription } from "../../support/subscriptions.ts";

const at = new Date("2027-03-01T08:00:00Z");

describe.each(testDatabases())("a subscription's paid periods on $name", (target) => {
  const open = databasePerTest(target);

  it("counts each period paid on the mandate or by hand once, and no failed attempt", async () => {
    const { db } = await open();
    const subscription = await confirmedSubscription(db, { email: "anna@example.nl" });
    const other = await confirmedSubscription(db, { email: "bram@example.nl" });
    await subscriptionRepository(db).applyEvent(
      subscription.id,
      { type: "payment_paid", paymentId: "tr_first" },
      at,
    );
    const charges = subscriptionChargeRepository(db);
    const charge = async (subscriptionId: string, periodStart: string, attempt: number, status: string) => {
      const { charge } = await charges.claim(
        {
          subscriptionId,
          periodStart,
          periodEnd: periodStart,
          attempt,
          dueOn: periodStart,
          amountCents: 499,
          method: "mandate",
          provider: "test",
        },
        at,
      );
      await charges.remember(charge.id, status, at);
      return charge;
    };
    const byHand = (chargeId: number, periodStart: string, attempt: number, status: string) =>
      db
        .insertInto("by_hand_payments")
        .values({
          subscription_id: subscription.id,
          charge_id: chargeId,
          period_start: periodStart,
          period_end: periodStart,
          attempt,
          amount_cents: 499,
          payment_id: `tr_hand_${periodStart}_${attempt}`,
          provider: "test",
          status,
          checkout_url: "https://pay.example/checkout",
          created_at: at.toISOString(),
          updated_at: at.toISOString(),
        })
        .execute();

    expect(await charges.paidPeriods(subscription.id)).toBe(0);
    // April: failed on the mandate, then paid by hand on the second try.
    const april = await charge(subscription.id, "2027-04-01", 1, "failed");
    await byHand(april.id, "2027-04-01", 1, "failed");
    await byHand(april.id, "2027-04-01", 2, "paid");
    // May: paid on the mandate's retry, and (a webhook that came late) by hand as well.
    await charge(subscription.id, "2027-05-01", 1, "failed");
    const may = await charge(subscription.id, "2027-05-01", 2, "paid");
    await byHand(may.id, "2027-05-01", 1, "paid");
    // June: still open.
    await charge(subscription.id, "2027-06-01", 1, "open");
    // Another subscriber's paid period is theirs.
    await charge(other.id, "2027-04-01", 1, "paid");

    expect(await charges.paidPeriods(subscription.id)).toBe(2);
    expect(await charges.paidPeriods(other.id)).toBe(1);
  });
});
