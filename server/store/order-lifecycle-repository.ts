import { type Kysely, PostgresAdapter } from "kysely";
import {
  applyEvent,
  awaitingPayment,
  isOrderStatus,
  type OrderEvent,
  type OrderEventType,
  type OrderStatus,
  orderEventTypes,
} from "../domain/order-lifecycle.ts";
import type { Schema } from "./schema.ts";

/** The change an event made, for a caller that acts on it (a mail to queue). */
export interface OrderChange {
  orderId: number;
  event: OrderEvent;
  at: Date;
}

/**
 * Runs inside the transaction that changed the order, only when it changed: whatever it
 * writes (a mail in the outbox) commits with the change or not at all, so it happens once
 * per fact however often the event arrives. If it throws, the change is undone too.
 */
export type AfterChange = (
  trx: Kysely<Schema>,
  from: OrderStatus,
  to: OrderStatus,
  change: OrderChange,
) => Promise<void>;

export type ApplyOrderEventResult =
  | { kind: "changed"; from: OrderStatus; to: OrderStatus }
  /** Allowed, and it had already happened (a replay) or does not move the order (a failed payment). */
  | { kind: "unchanged"; status: OrderStatus }
  /**
   * Not allowed: nothing was stored. For `payment_paid` this means money was taken that the
   * order cannot take; the caller logs an error so a person refunds or reinstates.
   */
  | { kind: "refused"; status: OrderStatus; reason: string }
  | { kind: "unknown-order" };

export interface OrderTransition {
  from: OrderStatus;
  to: OrderStatus;
  event: OrderEventType;
  paymentId?: string;
  /** ISO-8601 UTC */
  at: string;
}

export interface OrderLifecycleRepository {
  /**
   * Applies `event` to the order in one transaction, holding the order's row while it reads
   * the status, decides (domain/order-lifecycle.ts) and writes: any number of the same event
   * at once, from any number of instances, make one change, one transition row and one
   * `afterChange` call.
   */
  applyOrderEvent(
    orderId: number,
    event: OrderEvent,
    at: Date,
    options?: { afterChange?: AfterChange },
  ): Promise<ApplyOrderEventResult>;
  /** The order's changes, oldest first; empty for an order that never changed or does not exist. */
  transitionsOf(orderId: number): Promise<OrderTransition[]>;
  /**
   * Expires every order placed before `before` and still awaiting payment, each through
   * `applyOrderEvent` (so an order paid meanwhile stays paid). Returns how many expired.
   */
  expireUnpaid(before: Date, options?: { at?: Date; afterChange?: AfterChange }): Promise<number>;
}

function storedStatus(orderId: number, value: string): OrderStatus {
  if (!isOrderStatus(value)) throw new Error(`order ${orderId} has an unknown status "${value}"`);
  return value;
}

function paymentIdOf(event: OrderEvent): string | null {
  return "paymentId" in event ? event.paymentId : null;
}

export function orderLifecycleRepository(db: Kysely<Schema>): OrderLifecycleRepository {
  // The adapter says which database this is on every Kysely the shop hands out, also on the
  // one connection the clean-up job runs on.
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  async function applyOrderEvent(
    orderId: number,
    event: OrderEvent,
    at: Date,
    options: { afterChange?: AfterChange } = {},
  ): Promise<ApplyOrderEventResult> {
    return db.transaction().execute(async (trx): Promise<ApplyOrderEventResult> => {
      const read = trx.selectFrom("orders").select("status").where("id", "=", orderId);
      // PostgreSQL: a second event for this order waits here until this one commits, then
      // reads the status it left. SQLite has one connection and runs one transaction at a time.
      const row = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
      if (!row) return { kind: "unknown-order" };
      const status = storedStatus(orderId, row.status);

      const decided = applyEvent(status, event);
      if (!decided.ok) return { kind: "refused", status, reason: decided.reason };
      if (!decided.changed) {
        if (event.type === "payment_paid") {
          const first = await otherPaidPayment(trx, orderId, event.paymentId);
          if (first) {
            const reason = `payment ${event.paymentId} was paid for an order already paid by ${first}: refund it`;
            return { kind: "refused", status, reason };
          }
        }
        return { kind: "unchanged", status };
      }

      const next = decided.next;
      await trx.updateTable("orders").set({ status: next }).where("id", "=", orderId).execute();
      await trx
        .insertInto("order_transitions")
        .values({
          order_id: orderId,
          from_status: status,
          to_status: next,
          event: event.type,
          payment_id: paymentIdOf(event),
          at: at.toISOString(),
        })
        .execute();
      await options.afterChange?.(trx, status, next, { orderId, event, at });
      return { kind: "changed", from: status, to: next };
    });
  }

  return {
    applyOrderEvent,

    async transitionsOf(orderId) {
      const rows = await db
        .selectFrom("order_transitions")
        .select(["from_status", "to_status", "event", "payment_id", "at"])
        .where("order_id", "=", orderId)
        .orderBy("id")
        .execute();
      return rows.map((row) => ({
        from: storedStatus(orderId, row.from_status),
        to: storedStatus(orderId, row.to_status),
        event: eventType(row.event),
        ...(row.payment_id ? { paymentId: row.payment_id } : {}),
        at: row.at,
      }));
    },

    async expireUnpaid(before, options = {}) {
      const at = options.at ?? new Date();
      const due = await db
        .selectFrom("orders")
        .select("id")
        .where("status", "=", awaitingPayment)
        .where("created_at", "<", before.toISOString())
        .orderBy("id")
        .execute();
      let expired = 0;
      // One short transaction per order: SQLite's one writer is never held for long, and a
      // payment arriving for one of them waits only for that order.
      for (const { id } of due) {
        const result = await applyOrderEvent(Number(id), { type: "order_expired" }, at, options);
        if (result.kind === "changed") expired++;
      }
      return expired;
    },
  };
}

/**
 * The payment that paid this order, when it is not `paymentId`: a second payment paid for an
 * order already paid takes the shopper's money twice, which a person has to refund.
 */
async function otherPaidPayment(trx: Kysely<Schema>, orderId: number, paymentId: string) {
  const paid = await trx
    .selectFrom("order_transitions")
    .select("payment_id")
    .where("order_id", "=", orderId)
    .where("to_status", "=", "paid")
    .executeTakeFirst();
  return paid?.payment_id && paid.payment_id !== paymentId ? paid.payment_id : undefined;
}

function eventType(value: string): OrderEventType {
  const known = orderEventTypes.find((type) => type === value);
  if (!known) throw new Error(`an order transition has an unknown event "${value}"`);
  return known;
}
