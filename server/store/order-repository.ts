import { type Kysely, PostgresAdapter } from "kysely";
import type { DeliveryAddress } from "../domain/delivery-address.ts";
import { awaitingPayment } from "../domain/order-lifecycle.ts";
import { isDeliveryCountry } from "../domain/postcode.ts";
import type { Locale } from "../i18n/locales.ts";
import { enqueueMail, type OutgoingMail } from "../mail/outbox.ts";
import { addressOf, type CartLine, readAddress, readLines, touchCart } from "./cart-repository.ts";
import { type PageViewReads, readsThrough } from "./database.ts";
import type { Schema } from "./schema.ts";

/** Every order is placed awaiting payment; its life from there is order-lifecycle-repository.ts's. */
export { awaitingPayment };

export interface OrderLine {
  productId: string;
  orientation: string;
  sizeId: string;
  productName: string;
  quantity: number;
  unitCents: number;
  totalCents: number;
  /** The photo-book project the line orders, if any: the order keeps it for production. */
  projectId?: string;
}

export interface OrderDraft {
  locale: Locale;
  address: DeliveryAddress;
  lines: OrderLine[];
  subtotalCents: number;
  /** What the shopper's photo subscription took off the subtotal (ADR 0104); none without one. */
  subscriber?: OrderSubscriberBenefits;
  shippingCents: number;
  vatRate: number;
  vatCents: number;
  totalCents: number;
  production: { min: number; max: number };
}

/** The free prints and photo-book discount of an order, and the paid period whose prints they were. */
export interface OrderSubscriberBenefits {
  subscriptionId: string;
  /** The first day of the paid period. */
  period: string;
  freePrints: number;
  freePrintsCents: number;
  photoBookDiscount: number;
  photoBookDiscountCents: number;
}

/** The subscription whose free prints an order may use: its paid period's first day. */
export interface OrderSubscriber {
  subscriptionId: string;
  period: string;
}

export interface Order extends OrderDraft {
  id: number;
  status: string;
  createdAt: string;
  /** The account it belongs to; undefined for a guest's order. */
  accountId?: string;
}

/** What the cart held when the order was placed, read inside the order's transaction. */
export interface CartSnapshot {
  lines: CartLine[];
  address: DeliveryAddress | undefined;
  /**
   * With a subscriber: the free prints the period's other orders used, counted inside the
   * order's transaction, after the subscription's row was locked, so two orders at once
   * cannot both use the same prints.
   */
  freePrintsUsed?: number;
}

/**
 * Turns the cart into an order, or refuses with a reason the route explains to the
 * shopper (the cart changed since the overview, it is empty, ...). A mail, if any, is
 * composed once the order has its id, so it can name the order number. The order
 * confirmation is not one: it goes out when the payment is received (order-payments.ts).
 */
export type PrepareOrder<R> = (
  cart: CartSnapshot,
) => { draft: OrderDraft; mail?: (orderId: number) => OutgoingMail } | { refused: R };

export type PlaceResult<R> =
  | { kind: "placed"; orderId: number }
  /** This key already made an order: a double submit or a retried request. */
  | { kind: "existing"; orderId: number }
  | { kind: "refused"; reason: R }
  /** The key belongs to another cart's order (a tampered form): nothing was placed. */
  | { kind: "foreign-key" };

export interface OrderRepository {
  /**
   * Places the order for a cart in one transaction: the order, its lines and the mail
   * prepare gave, if any, are written, and the cart is emptied, or nothing is.
   * The idempotency key makes a second post with the same key return the first order.
   */
  place<R>(
    cartId: string,
    idempotencyKey: string,
    prepare: PrepareOrder<R>,
    options?: { accountId?: string; subscriber?: OrderSubscriber },
  ): Promise<PlaceResult<R>>;
  /**
   * The free prints the orders of a subscription's paid period used: those still awaiting
   * payment or paid, not those that expired or were cancelled (they give their prints back).
   */
  freePrintsUsed(subscriber: OrderSubscriber, trx?: Kysely<Schema>): Promise<number>;
  /** An order of this cart; undefined for an unknown id or someone else's order. */
  find(orderId: number, cartId: string): Promise<Order | undefined>;
  /**
   * Any order by its id, for the shop's own work (a payment's outcome, the mails about it),
   * never for a page: a page shows an order only to its cart (find).
   */
  get(orderId: number): Promise<Order | undefined>;
  /** An order of this account; undefined for an unknown id or another's order. */
  findForAccount(orderId: number, accountId: string): Promise<Order | undefined>;
  /** The account's orders, newest first, with when they were paid and shipped. */
  listForAccount(accountId: string): Promise<OrderSummary[]>;
  /**
   * What of an order can still change once it is placed: its status (the next step) and its
   * address (anonymised). One row, read as every check of a kept order page reads it.
   */
  standing(orderId: number): Promise<OrderStanding | undefined>;
}

export interface OrderStanding {
  status: string;
  address: DeliveryAddress;
}

export interface OrderSummary {
  id: number;
  status: string;
  createdAt: string;
  totalCents: number;
  country: string;
  production: { min: number; max: number };
  /** When the payment was received (the transition to paid), if it was. */
  paidAt: string | undefined;
  shippedAt: string | undefined;
}

async function orderWithKey(db: Kysely<Schema>, key: string) {
  return db
    .selectFrom("orders")
    .select(["id", "cart_id"])
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
}

export function orderRepository(
  db: Kysely<Schema>,
  /** Where the reads of every page view go (database.ts); by default through Kysely. */
  reads: PageViewReads = readsThrough(db),
): OrderRepository {
  // Compiled once with a stand-in id; each call runs it with its own.
  const standingQuery = db
    .selectFrom("orders")
    .select(["status", "name", "street", "postcode", "city", "country", "email", "phone"])
    .where("id", "=", 0)
    .compile();
  type StandingRow = Pick<
    Schema["orders"],
    "status" | "name" | "street" | "postcode" | "city" | "email" | "phone"
  > & {
    country: string;
  };

  return {
    async place(cartId, idempotencyKey, prepare, options = {}) {
      const at = new Date().toISOString();
      try {
        return await db.transaction().execute(async (trx) => {
          // Touching the cart row first takes its lock on PostgreSQL: a second order for the
          // same cart (another tab, another instance) waits here, then finds the cart emptied.
          // Every cart change takes this lock first too (touchCart), so an add arriving now
          // waits for the order instead of holding a line this transaction is about to delete.
          await touchCart(trx, cartId, at);
          const existing = await orderWithKey(trx, idempotencyKey);
          if (existing) return existingResult(existing, cartId);

          const { subscriber } = options;
          if (subscriber) await lockSubscription(trx, subscriber.subscriptionId);
          const prepared = prepare({
            lines: await readLines(trx, cartId),
            address: await readAddress(trx, cartId),
            ...(subscriber && { freePrintsUsed: await freePrintsUsed(trx, subscriber) }),
          });
          if ("refused" in prepared) return { kind: "refused", reason: prepared.refused } as const;
          const { draft } = prepared;
          const inserted = await trx
            .insertInto("orders")
            .values({
              idempotency_key: idempotencyKey,
              cart_id: cartId,
              locale: draft.locale,
              status: awaitingPayment,
              name: draft.address.name,
              street: draft.address.street,
              postcode: draft.address.postcode,
              city: draft.address.city,
              country: draft.address.country,
              email: draft.address.email,
              phone: draft.address.phone ?? null,
              subtotal_cents: draft.subtotalCents,
              shipping_cents: draft.shippingCents,
              vat_rate: draft.vatRate,
              vat_cents: draft.vatCents,
              total_cents: draft.totalCents,
              production_min_days: draft.production.min,
              production_max_days: draft.production.max,
              created_at: at,
              account_id: options.accountId ?? null,
              ...(draft.subscriber && {
                free_prints: draft.subscriber.freePrints,
                free_prints_cents: draft.subscriber.freePrintsCents,
                photo_book_discount: draft.subscriber.photoBookDiscount,
                photo_book_discount_cents: draft.subscriber.photoBookDiscountCents,
                subscription_id: draft.subscriber.subscriptionId,
                subscription_period: draft.subscriber.period,
              }),
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          const orderId = Number(inserted.id);
          await trx
            .insertInto("order_lines")
            .values(
              draft.lines.map((line, i) => ({
                order_id: orderId,
                position: i + 1,
                product_id: line.productId,
                orientation: line.orientation,
                size_id: line.sizeId,
                product_name: line.productName,
                quantity: line.quantity,
                unit_cents: line.unitCents,
                total_cents: line.totalCents,
                project_id: line.projectId ?? null,
              })),
            )
            .execute();
          if (prepared.mail) await enqueueMail(trx, prepared.mail(orderId));
          await trx.deleteFrom("cart_lines").where("cart_id", "=", cartId).execute();
          // The address went into the order; the cart keeps no copy of it.
          await trx.deleteFrom("cart_addresses").where("cart_id", "=", cartId).execute();
          return { kind: "placed", orderId } as const;
        });
      } catch (err) {
        // Two posts with one key at the same moment: the unique key stops the second
        // insert, and that post answers with the order the first one made.
        const existing = await orderWithKey(db, idempotencyKey).catch(() => undefined);
        if (existing) return existingResult(existing, cartId);
        throw err;
      }
    },

    freePrintsUsed: (subscriber, trx = db) => freePrintsUsed(trx, subscriber),
    find: (orderId, cartId) => readOrder(db, orderId, { cartId }),
    get: (orderId) => readOrder(db, orderId),
    findForAccount: (orderId, accountId) => readOrder(db, orderId, { accountId }),

    async standing(orderId) {
      if (!Number.isSafeInteger(orderId)) return undefined;
      const [row] = await reads.readCommitted<StandingRow>({ ...standingQuery, parameters: [orderId] });
      if (!row || !isDeliveryCountry(row.country)) return undefined;
      return { status: row.status, address: addressOf({ ...row, country: row.country }) };
    },

    async listForAccount(accountId) {
      const rows = await db
        .selectFrom("orders")
        .select([
          "id",
          "status",
          "created_at",
          "total_cents",
          "country",
          "production_min_days",
          "production_max_days",
        ])
        .where("account_id", "=", accountId)
        .orderBy("id", "desc")
        .execute();
      const ids = rows.map((row) => Number(row.id));
      const moments = ids.length
        ? await db
            .selectFrom("order_transitions")
            .select(["order_id", "to_status", "at"])
            .where("order_id", "in", ids)
            .where("to_status", "in", ["paid", "shipped"])
            .execute()
        : [];
      const when = (id: number, status: string) =>
        moments.find((m) => Number(m.order_id) === id && m.to_status === status)?.at;
      return rows.map((row) => ({
        id: Number(row.id),
        status: row.status,
        createdAt: row.created_at,
        totalCents: Number(row.total_cents),
        country: row.country,
        production: { min: Number(row.production_min_days), max: Number(row.production_max_days) },
        paidAt: when(Number(row.id), "paid"),
        shippedAt: when(Number(row.id), "shipped"),
      }));
    },
  };
}

/** The order with its lines; with `cartId` or `accountId`, only when that cart placed it or the account holds it. */
async function readOrder(
  db: Kysely<Schema>,
  orderId: number,
  owner: { cartId?: string; accountId?: string } = {},
): Promise<Order | undefined> {
  if (!Number.isSafeInteger(orderId)) return undefined;
  let query = db.selectFrom("orders").selectAll().where("id", "=", orderId);
  if (owner.cartId !== undefined) query = query.where("cart_id", "=", owner.cartId);
  if (owner.accountId !== undefined) query = query.where("account_id", "=", owner.accountId);
  const row = await query.executeTakeFirst();
  if (!row || !isDeliveryCountry(row.country)) return undefined;
  const lines = await db
    .selectFrom("order_lines")
    .selectAll()
    .where("order_id", "=", orderId)
    .orderBy("position")
    .execute();
  return {
    id: Number(row.id),
    status: row.status,
    createdAt: row.created_at,
    locale: row.locale as Locale,
    address: addressOf({ ...row, country: row.country }),
    lines: lines.map((l) => ({
      productId: l.product_id,
      orientation: l.orientation,
      sizeId: l.size_id,
      productName: l.product_name,
      quantity: Number(l.quantity),
      unitCents: Number(l.unit_cents),
      totalCents: Number(l.total_cents),
      ...(l.project_id ? { projectId: l.project_id } : {}),
    })),
    subtotalCents: Number(row.subtotal_cents),
    ...(row.subscription_id &&
      row.subscription_period && {
        subscriber: {
          subscriptionId: row.subscription_id,
          period: row.subscription_period,
          freePrints: Number(row.free_prints),
          freePrintsCents: Number(row.free_prints_cents),
          photoBookDiscount: Number(row.photo_book_discount),
          photoBookDiscountCents: Number(row.photo_book_discount_cents),
        },
      }),
    shippingCents: Number(row.shipping_cents),
    vatRate: Number(row.vat_rate),
    vatCents: Number(row.vat_cents),
    totalCents: Number(row.total_cents),
    production: { min: Number(row.production_min_days), max: Number(row.production_max_days) },
    ...(row.account_id ? { accountId: row.account_id } : {}),
  };
}

/** Orders that give their free prints back: never paid, or called off. */
const returnedStatuses = ["expired", "cancelled"];

async function freePrintsUsed(db: Kysely<Schema>, subscriber: OrderSubscriber): Promise<number> {
  const row = await db
    .selectFrom("orders")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("free_prints"), eb.lit(0)).as("used"))
    .where("subscription_id", "=", subscriber.subscriptionId)
    .where("subscription_period", "=", subscriber.period)
    .where("status", "not in", returnedStatuses)
    .executeTakeFirst();
  return Number(row?.used ?? 0);
}

/**
 * Orders of one subscription wait for each other (PostgreSQL's row lock; SQLite writes one
 * transaction at a time): each counts the prints the one before it used.
 */
async function lockSubscription(trx: Kysely<Schema>, subscriptionId: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await trx.selectFrom("subscriptions").select("id").where("id", "=", subscriptionId).forUpdate().execute();
}

function existingResult<R>(existing: { id: number; cart_id: string }, cartId: string): PlaceResult<R> {
  // A key is 128 random bits from this cart's own overview; one from another cart is
  // never honoured, so no shopper can reach someone else's order with it.
  if (existing.cart_id !== cartId) return { kind: "foreign-key" };
  return { kind: "existing", orderId: Number(existing.id) };
}
