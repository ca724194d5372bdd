import { describe, expect, it } from "vitest";
import type { OrderStatus } from "../../../server/domain/order-lifecycle.ts";
import { type CleanUpDeps, runCleanUp } from "../../../server/jobs/clean-up.ts";
import { enqueueMail } from "../../../server/mail/outbox.ts";
import type { Database } from "../../../server/store/database.ts";
import {
  type AfterChange,
  orderLifecycleRepository,
} from "../../../server/store/order-lifecycle-repository.ts";
import type { PhotoStorage } from "../../../server/uploads/photo-storage.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { orderRow } from "../../support/orders.ts";

const now = new Date("2026-11-25T12:00:00Z");
const hourMs = 3_600_000;
const minutesLater = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

let keys = 0;

/** An order as the checkout places it, awaiting payment unless told otherwise. */
async function placeOrder(
  database: Database,
  { createdAt = now, status = "awaiting_payment" }: { createdAt?: Date; status?: OrderStatus } = {},
): Promise<number> {
  keys++;
  const row = await database.db
    .insertInto("orders")
    .values({
      ...orderRow(`key-${String(keys).padStart(18, "0")}`, "cart-anna"),
      status,
      created_at: createdAt.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function statusOf(database: Database, orderId: number): Promise<string | undefined> {
  const row = await database.db
    .selectFrom("orders")
    .select("status")
    .where("id", "=", orderId)
    .executeTakeFirst();
  return row?.status;
}

/** Queues a mail for every change it hears of, and remembers the changes, as a caller would. */
function mailingCaller() {
  const heard: string[] = [];
  const afterChange: AfterChange = async (trx, from, to, change) => {
    heard.push(`${change.orderId}: ${from} → ${to}`);
    await enqueueMail(
      trx,
      { kind: `order-${to}`, locale: "nl", to: "anna@example.nl", subject: `Bestelling ${to}`, text: "…" },
      change.at,
    );
  };
  return { heard, afterChange };
}

async function mailsQueued(database: Database): Promise<string[]> {
  return (await database.db.selectFrom("outbox").select("kind").orderBy("id").execute()).map((m) => m.kind);
}

const untouchedPhotos: PhotoStorage = {
  put: async () => {
    throw new Error("the clean-up stores no photos");
  },
  read: async () => undefined,
  remove: async () => {},
};

describe.each(testDatabases())("an order's life on $name", (target) => {
  const open = databasePerTest(target);

  it("stores each step from payment to shipping with its time, event and payment", async () => {
    const database = await open();
    const orderId = await placeOrder(database);
    const lifecycle = orderLifecycleRepository(database.db);
    const caller = mailingCaller();

    expect(
      await lifecycle.applyOrderEvent(
        orderId,
        { type: "payment_paid", paymentId: "tr_1" },
        minutesLater(5),
        caller,
      ),
    ).toEqual({ kind: "changed", from: "awaiting_payment", to: "paid" });
    expect(
      await lifecycle.applyOrderEvent(orderId, { type: "production_started" }, minutesLater(60), caller),
    ).toEqual({ kind: "changed", from: "paid", to: "in_production" });
    expect(await lifecycle.applyOrderEvent(orderId, { type: "shipped" }, minutesLater(600), caller)).toEqual({
      kind: "changed",
      from: "in_production",
      to: "shipped",
    });

    expect(await statusOf(database, orderId)).toBe("shipped");
    expect(await lifecycle.transitionsOf(orderId)).toEqual([
      {
        from: "awaiting_payment",
        to: "paid",
        event: "payment_paid",
        paymentId: "tr_1",
        at: minutesLater(5).toISOString(),
      },
      { from: "paid", to: "in_production", event: "production_started", at: minutesLater(60).toISOString() },
      { from: "in_production", to: "shipped", event: "shipped", at: minutesLater(600).toISOString() },
    ]);
    expect(caller.heard).toEqual([
      `${orderId}: awaiting_payment → paid`,
      `${orderId}: paid → in_production`,
      `${orderId}: in_production → shipped`,
    ]);
    expect(await mailsQueued(database)).toEqual(["order-paid", "order-in_production", "order-shipped"]);
  });

  it("stores an unpaid order's cancellation, and another's expiry, each as one change", async () => {
    const database = await open();
    const cancelled = await placeOrder(database);
    const expired = await placeOrder(database);
    const lifecycle = orderLifecycleRepository(database.db);

    expect(await lifecycle.applyOrderEvent(cancelled, { type: "order_cancelled" }, minutesLater(1))).toEqual({
      kind: "changed",
      from: "awaiting_payment",
      to: "cancelled",
    });
    expect(await lifecycle.applyOrderEvent(expired, { type: "order_expired" }, minutesLater(2))).toEqual({
      kind: "changed",
      from: "awaiting_payment",
      to: "expired",
    });
    // Said again, nothing happens twice.
    expect(await lifecycle.applyOrderEvent(cancelled, { type: "order_cancelled" }, minutesLater(3))).toEqual({
      kind: "unchanged",
      status: "cancelled",
    });

    expect(await lifecycle.transitionsOf(cancelled)).toEqual([
      {
        from: "awaiting_payment",
        to: "cancelled",
        event: "order_cancelled",
        at: minutesLater(1).toISOString(),
      },
    ]);
    expect(await lifecycle.transitionsOf(expired)).toEqual([
      { from: "awaiting_payment", to: "expired", event: "order_expired", at: minutesLater(2).toISOString() },
    ]);
  });

  it("refuses shipping an unpaid order and stores nothing, calling nobody", async () => {
    const database = await open();
    const orderId = await placeOrder(database);
    const lifecycle = orderLifecycleRepository(database.db);
    const caller = mailingCaller();

    const result = await lifecycle.applyOrderEvent(orderId, { type: "shipped" }, minutesLater(1), caller);
    expect(result).toEqual({ kind: "refused", status: "awaiting_payment", reason: expect.any(String) });
    expect(await statusOf(database, orderId)).toBe("awaiting_payment");
    expect(await lifecycle.transitionsOf(orderId)).toEqual([]);
    expect(caller.heard).toEqual([]);
    expect(await mailsQueued(database)).toEqual([]);
  });

  it("refuses a payment paid for an expired order, for a person to refund, and keeps the order expired", async () => {
    const database = await open();
    const orderId = await placeOrder(database);
    const lifecycle = orderLifecycleRepository(database.db);
    await lifecycle.applyOrderEvent(orderId, { type: "order_expired" }, minutesLater(1));

    const result = await lifecycle.applyOrderEvent(
      orderId,
      { type: "payment_paid", paymentId: "tr_late" },
      minutesLater(2),
    );
    expect(result).toEqual({ kind: "refused", status: "expired", reason: expect.stringContaining("refund") });
    expect(await statusOf(database, orderId)).toBe("expired");
    expect((await lifecycle.transitionsOf(orderId)).map((t) => t.to)).toEqual(["expired"]);
  });

  it("makes one change, one transition and one mail of 50 identical paid webhooks arriving at once", async () => {
    const database = await open();
    const orderId = await placeOrder(database);
    const lifecycle = orderLifecycleRepository(database.db);
    const caller = mailingCaller();

    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        lifecycle.applyOrderEvent(
          orderId,
          { type: "payment_paid", paymentId: "tr_once" },
          minutesLater(i),
          caller,
        ),
      ),
    );

    expect(results.filter((r) => r.kind === "changed")).toEqual([
      { kind: "changed", from: "awaiting_payment", to: "paid" },
    ]);
    expect(results.filter((r) => r.kind === "unchanged")).toHaveLength(49);
    expect(await statusOf(database, orderId)).toBe("paid");
    const rows = await database.db.selectFrom("order_transitions").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(caller.heard).toEqual([`${orderId}: awaiting_payment → paid`]);
    expect(await mailsQueued(database)).toEqual(["order-paid"]);
  });

  it("keeps an order paid when a failed payment's word arrives after the paid one", async () => {
    const database = await open();
    const orderId = await placeOrder(database);
    const lifecycle = orderLifecycleRepository(database.db);
    const caller = mailingCaller();

    await lifecycle.applyOrderEvent(
      orderId,
      { type: "payment_paid", paymentId: "tr_2" },
      minutesLater(2),
      caller,
    );
    expect(
      await lifecycle.applyOrderEvent(
        orderId,
        { type: "payment_failed", paymentId: "tr_1" },
        minutesLater(3),
        caller,
      ),
    ).toEqual({ kind: "unchanged", status: "paid" });

    expect(await statusOf(database, orderId)).toBe("paid");
    expect((await lifecycle.transitionsOf(orderId)).map((t) => `${t.event} ${t.paymentId}`)).toEqual([
      "payment_paid tr_2",
    ]);
    expect(caller.heard).toHaveLength(1);
  });

  it("leaves an order awaiting payment after a failed payment, so a second payment can pay it", async () => {
    const database = await open();
    const orderId = await placeOrder(database);
    const lifecycle = orderLifecycleRepository(database.db);

    expect(
      await lifecycle.applyOrderEvent(
        orderId,
        { type: "payment_failed", paymentId: "tr_1" },
        minutesLater(1),
      ),
    ).toEqual({ kind: "unchanged", status: "awaiting_payment" });
    expect(await lifecycle.transitionsOf(orderId)).toEqual([]);
    expect(
      await lifecycle.applyOrderEvent(orderId, { type: "payment_paid", paymentId: "tr_2" }, minutesLater(2)),
    ).toEqual({ kind: "changed", from: "awaiting_payment", to: "paid" });
  });

  it("refuses a second payment paid for an order that another payment already paid, while a replay of the first changes nothing", async () => {
    const database = await open();
    const orderId = await placeOrder(database);
    const lifecycle = orderLifecycleRepository(database.db);
    await lifecycle.applyOrderEvent(
      orderId,
      { type: "payment_paid", paymentId: "tr_first" },
      minutesLater(1),
    );

    expect(
      await lifecycle.applyOrderEvent(
        orderId,
        { type: "payment_paid", paymentId: "tr_first" },
        minutesLater(2),
      ),
    ).toEqual({ kind: "unchanged", status: "paid" });
    const second = await lifecycle.applyOrderEvent(
      orderId,
      { type: "payment_paid", paymentId: "tr_second" },
      minutesLater(3),
    );
    expect(second).toEqual({ kind: "refused", status: "paid", reason: expect.stringContaining("tr_first") });
    expect(await lifecycle.transitionsOf(orderId)).toHaveLength(1);
  });

  it("undoes the change when what the caller does with it fails, so the next delivery tries again", async () => {
    const database = await open();
    const orderId = await placeOrder(database);
    const lifecycle = orderLifecycleRepository(database.db);
    const failing: AfterChange = async () => {
      throw new Error("the outbox is away");
    };

    await expect(
      lifecycle.applyOrderEvent(orderId, { type: "payment_paid", paymentId: "tr_1" }, minutesLater(1), {
        afterChange: failing,
      }),
    ).rejects.toThrow("the outbox is away");
    expect(await statusOf(database, orderId)).toBe("awaiting_payment");
    expect(await lifecycle.transitionsOf(orderId)).toEqual([]);

    const caller = mailingCaller();
    expect(
      await lifecycle.applyOrderEvent(
        orderId,
        { type: "payment_paid", paymentId: "tr_1" },
        minutesLater(2),
        caller,
      ),
    ).toEqual({ kind: "changed", from: "awaiting_payment", to: "paid" });
    expect(await mailsQueued(database)).toEqual(["order-paid"]);
  });

  it("says so for an order that does not exist, and stores nothing", async () => {
    const database = await open();
    const lifecycle = orderLifecycleRepository(database.db);
    expect(
      await lifecycle.applyOrderEvent(424_242, { type: "payment_paid", paymentId: "tr_1" }, now),
    ).toEqual({
      kind: "unknown-order",
    });
    expect(await database.db.selectFrom("order_transitions").selectAll().execute()).toEqual([]);
  });

  it("expires only orders awaiting payment placed before the cut-off, and a second run changes nothing", async () => {
    const database = await open();
    const cutOff = new Date(now.getTime() - 24 * hourMs);
    const oldUnpaid = await placeOrder(database, { createdAt: new Date(cutOff.getTime() - 1000) });
    const atTheCutOff = await placeOrder(database, { createdAt: cutOff });
    const youngUnpaid = await placeOrder(database, { createdAt: new Date(cutOff.getTime() + 1000) });
    const oldPaid = await placeOrder(database, { createdAt: new Date(cutOff.getTime() - 1000) });
    const oldCancelled = await placeOrder(database, { createdAt: new Date(cutOff.getTime() - 1000) });
    const lifecycle = orderLifecycleRepository(database.db);
    await lifecycle.applyOrderEvent(oldPaid, { type: "payment_paid", paymentId: "tr_1" }, cutOff);
    await lifecycle.applyOrderEvent(oldCancelled, { type: "order_cancelled" }, cutOff);
    const caller = mailingCaller();

    expect(await lifecycle.expireUnpaid(cutOff, { at: now, afterChange: caller.afterChange })).toBe(1);

    expect(await statusOf(database, oldUnpaid)).toBe("expired");
    expect(await lifecycle.transitionsOf(oldUnpaid)).toEqual([
      { from: "awaiting_payment", to: "expired", event: "order_expired", at: now.toISOString() },
    ]);
    expect(await statusOf(database, atTheCutOff)).toBe("awaiting_payment");
    expect(await statusOf(database, youngUnpaid)).toBe("awaiting_payment");
    expect(await statusOf(database, oldPaid)).toBe("paid");
    expect(await statusOf(database, oldCancelled)).toBe("cancelled");
    expect(caller.heard).toEqual([`${oldUnpaid}: awaiting_payment → expired`]);

    expect(
      await lifecycle.expireUnpaid(cutOff, { at: minutesLater(1), afterChange: caller.afterChange }),
    ).toBe(0);
    expect(await lifecycle.transitionsOf(oldUnpaid)).toHaveLength(1);
    expect(caller.heard).toHaveLength(1);
  });

  it("never expires an order whose payment arrives while the expiry runs: one of the two wins, whole", async () => {
    const database = await open();
    const cutOff = new Date(now.getTime() - 24 * hourMs);
    const orderIds = await Promise.all(
      Array.from({ length: 10 }, () =>
        placeOrder(database, { createdAt: new Date(cutOff.getTime() - 1000) }),
      ),
    );
    const lifecycle = orderLifecycleRepository(database.db);

    const [expired, ...payments] = await Promise.all([
      lifecycle.expireUnpaid(cutOff, { at: now }),
      ...orderIds.map((id) =>
        lifecycle.applyOrderEvent(id, { type: "payment_paid", paymentId: `tr_${id}` }, now),
      ),
    ]);

    const statuses = await Promise.all(orderIds.map((id) => statusOf(database, id)));
    const paid = payments.filter((p) => p.kind === "changed").length;
    const refused = payments.filter((p) => p.kind === "refused").length;
    expect(paid + refused).toBe(orderIds.length);
    expect(statuses.filter((s) => s === "paid")).toHaveLength(paid);
    expect(statuses.filter((s) => s === "expired")).toHaveLength(expired);
    expect(paid + expired).toBe(orderIds.length);
    for (const id of orderIds) expect(await lifecycle.transitionsOf(id)).toHaveLength(1);
  });

  it("has the clean-up job expire orders unpaid for more than 24 hours, and count them in its log", async () => {
    const database = await open();
    const dayAgo = now.getTime() - 24 * hourMs;
    const overdue = await placeOrder(database, { createdAt: new Date(dayAgo - 1000) });
    const notYet = await placeOrder(database, { createdAt: new Date(dayAgo + 1000) });
    const logged: unknown[] = [];
    const log = { info: (...args: unknown[]) => logged.push(args), warn: () => {} };

    const result = await runCleanUp({
      database,
      photoStorage: untouchedPhotos,
      retention: { analyticsRawDays: 90, stagedUploadDays: 7, emptyProjectDays: 30, mailBodyDays: 30 },
      log: log as unknown as CleanUpDeps["log"],
      now: () => now,
    });

    expect(result).toMatchObject({ ran: true, failed: [], counts: { unpaidOrders: 1 } });
    expect(logged).toContainEqual([expect.objectContaining({ unpaidOrders: 1 }), "clean-up done"]);
    expect(await statusOf(database, overdue)).toBe("expired");
    expect(await statusOf(database, notYet)).toBe("awaiting_payment");
    expect(await orderLifecycleRepository(database.db).transitionsOf(overdue)).toEqual([
      { from: "awaiting_payment", to: "expired", event: "order_expired", at: now.toISOString() },
    ]);
  });
});
