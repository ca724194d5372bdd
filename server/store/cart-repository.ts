import { randomBytes } from "node:crypto";
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from "kysely";
import type { DeliveryAddress } from "../domain/delivery-address.ts";
import { isDeliveryCountry } from "../domain/postcode.ts";
import { type PageViewReads, readsThrough } from "./database.ts";
import type { Schema } from "./schema.ts";

export interface CartItem {
  productId: string;
  orientation: string;
  sizeId: string;
  /**
   * The photo-book project the line orders (the online editor). A line with a project is a
   * line of its own, so two projects in the same format are two books.
   */
  projectId?: string;
}

export interface CartLine extends CartItem {
  quantity: number;
}

export interface CartRepository {
  create(): Promise<string>;
  exists(cartId: string): Promise<boolean>;
  /**
   * Adds to the line for this option (or this project), creating it when needed; safe under
   * concurrent requests. Refuses (false, nothing changed) when the line would go over `limit`,
   * or when it would be a new line in a cart that already holds `maxLines` lines.
   * Adding a project again takes the project's current format.
   */
  add(cartId: string, item: CartItem, quantity: number, limit?: number, maxLines?: number): Promise<boolean>;
  /** Sets a line's quantity; false when the cart has no such line (removed in another tab). */
  setQuantity(cartId: string, item: CartItem, quantity: number): Promise<boolean>;
  /** Removes a line; false when it was not there. */
  remove(cartId: string, item: CartItem): Promise<boolean>;
  lines(cartId: string): Promise<CartLine[]>;
  itemCount(cartId: string): Promise<number>;
  /**
   * A number that changes whenever anything the cart pages show changes (lines, address,
   * the photos of a line's project); undefined for a cart that does not exist.
   */
  revision(cartId: string): Promise<number | undefined>;
  address(cartId: string): Promise<DeliveryAddress | undefined>;
  saveAddress(cartId: string, address: DeliveryAddress): Promise<void>;
  /**
   * Deletes carts nobody changed since `before`, their lines and address with them (orders
   * keep their own copy); returns how many went. The clean-up job (server/jobs/clean-up.ts)
   * runs it, one instance at a time.
   */
  deleteAbandoned(before: Date): Promise<number>;
}

const now = () => new Date().toISOString();

/** A cart's lines in the order they were added, as one query: run in a transaction, or compiled once. */
const linesOf = (db: Kysely<Schema>, cartId: string) =>
  db
    .selectFrom("cart_lines")
    .select(["product_id", "orientation", "size_id", "quantity", "project_id"])
    .where("cart_id", "=", cartId)
    .orderBy("added_at")
    .orderBy("product_id")
    .orderBy("orientation")
    .orderBy("size_id");

type LineRow = Awaited<ReturnType<ReturnType<typeof linesOf>["execute"]>>[number];

const lineOf = (r: LineRow): CartLine => ({
  productId: r.product_id,
  orientation: r.orientation,
  sizeId: r.size_id,
  quantity: Number(r.quantity),
  ...(r.project_id ? { projectId: r.project_id } : {}),
});

const addressRowOf = (db: Kysely<Schema>, cartId: string) =>
  db.selectFrom("cart_addresses").selectAll().where("cart_id", "=", cartId);

type AddressRow = Selectable<Schema["cart_addresses"]>;

function cartAddressOf(row: AddressRow | undefined): DeliveryAddress | undefined {
  // A country the shop stopped delivering to reads as no address: the shopper picks again.
  if (!row || !isDeliveryCountry(row.country)) return undefined;
  return addressOf({ ...row, country: row.country });
}

/** Lines and address read the same way inside and outside a transaction (placing an order reads them in one). */
export async function readLines(db: Kysely<Schema>, cartId: string): Promise<CartLine[]> {
  return (await linesOf(db, cartId).execute()).map(lineOf);
}

export async function readAddress(db: Kysely<Schema>, cartId: string): Promise<DeliveryAddress | undefined> {
  return cartAddressOf(await addressRowOf(db, cartId).executeTakeFirst());
}

/** The address columns a cart and an order share, as the address they hold. */
export function addressOf(row: {
  name: string;
  street: string;
  postcode: string;
  city: string;
  country: DeliveryAddress["country"];
  email: string;
  phone: string | null;
}): DeliveryAddress {
  return {
    name: row.name,
    street: row.street,
    postcode: row.postcode,
    city: row.city,
    country: row.country,
    email: row.email,
    ...(row.phone ? { phone: row.phone } : {}),
  };
}

/**
 * Marks the cart as changed now. Every change does this first: on PostgreSQL it takes the
 * cart row's lock before any line's, the order placing an order takes them in too, so the
 * two can never wait for each other. False when there is no such cart.
 */
export async function touchCart(db: Kysely<Schema>, cartId: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable("carts")
    .set({ updated_at: at })
    .where("id", "=", cartId)
    .executeTakeFirst();
  return affected(result) > 0;
}

function affected(result: {
  numInsertedOrUpdatedRows?: bigint;
  numUpdatedRows?: bigint;
  numDeletedRows?: bigint;
}) {
  return Number(result.numInsertedOrUpdatedRows ?? result.numUpdatedRows ?? result.numDeletedRows ?? 0n);
}

export function cartRepository(
  db: Kysely<Schema>,
  /** Where the reads of every page view go (database.ts); by default through Kysely. */
  reads: PageViewReads = readsThrough(db),
): CartRepository {
  // Compiled with a stand-in id; each call runs them with its own. The cart pages' lines and
  // address too: building a Kysely query per look at a cart cost a cold cart page about as
  // much as running it (docs/performance.md).
  const linesQuery = linesOf(db, "").compile();
  const addressQuery = addressRowOf(db, "").compile();
  const revisionQuery = db.selectFrom("carts").select("revision").where("id", "=", "").compile();
  const itemCountQuery = db
    .selectFrom("cart_lines")
    .select((eb) => eb.fn.sum<string | number | null>("quantity").as("total"))
    .where("cart_id", "=", "")
    .compile();
  const line = (cartId: string, item: CartItem) =>
    ({
      cart_id: cartId,
      product_id: item.productId,
      orientation: item.orientation,
      size_id: item.sizeId,
      project_id: item.projectId ?? null,
    }) as const;

  /** The one line an item names: by its project, or by its option among the plain lines. */
  const sameLine = (cartId: string, item: CartItem) => (eb: ExpressionBuilder<Schema, "cart_lines">) =>
    item.projectId
      ? eb.and([eb("cart_id", "=", cartId), eb("project_id", "=", item.projectId)])
      : eb.and([
          eb("cart_id", "=", cartId),
          eb("product_id", "=", item.productId),
          eb("orientation", "=", item.orientation),
          eb("size_id", "=", item.sizeId),
          eb("project_id", "is", null),
        ]);

  return {
    async create() {
      // 128 random bits: a cart id is a bearer secret, never guessable from another one.
      const id = randomBytes(16).toString("base64url");
      const at = now();
      await db.insertInto("carts").values({ id, created_at: at, updated_at: at }).execute();
      return id;
    },

    async exists(cartId) {
      const row = await db.selectFrom("carts").select("id").where("id", "=", cartId).executeTakeFirst();
      return row !== undefined;
    },

    async add(cartId, item, quantity, limit = 2 ** 31 - 1, maxLines) {
      const at = now();
      return db.transaction().execute(async (trx) => {
        if (!(await touchCart(trx, cartId, at))) throw new Error(`cart ${cartId} does not exist`);
        // The cart's lock (or SQLite's single writer) keeps this count and the insert together.
        if (maxLines !== undefined) {
          const held = await trx
            .selectFrom("cart_lines")
            .select((eb) => [
              eb.fn.countAll<string | number>().as("lines"),
              eb.fn.countAll<string | number>().filterWhere(sameLine(cartId, item)).as("same"),
            ])
            .where("cart_id", "=", cartId)
            .executeTakeFirst();
          if (Number(held?.same ?? 0) === 0 && Number(held?.lines ?? 0) >= maxLines) return false;
        }
        // Lines show in the order they were added. Two adds within one millisecond must not
        // swap places, so a new line comes after the cart's last one; the cart's lock (or
        // SQLite's single writer) keeps this read and the insert together.
        const last = await trx
          .selectFrom("cart_lines")
          .select((eb) => eb.fn.max("added_at").as("last"))
          .where("cart_id", "=", cartId)
          .executeTakeFirst();
        const addedAt =
          last?.last && last.last >= at ? new Date(Date.parse(last.last) + 1).toISOString() : at;
        // One statement decides, so two adds at once can never both pass the limit.
        const add = sql<number>`cart_lines.quantity + excluded.quantity`;
        const fits = sql<boolean>`cart_lines.quantity + excluded.quantity <= ${limit}`;
        // The two partial unique indexes of cart_lines: per option for plain lines, per project.
        const result = await trx
          .insertInto("cart_lines")
          .values({ ...line(cartId, item), quantity, added_at: addedAt })
          .onConflict((oc) =>
            item.projectId
              ? oc
                  .columns(["cart_id", "project_id"])
                  .where("project_id", "is not", null)
                  .doUpdateSet({
                    quantity: add,
                    product_id: sql`excluded.product_id`,
                    orientation: sql`excluded.orientation`,
                    size_id: sql`excluded.size_id`,
                  })
                  .where(fits)
              : oc
                  .columns(["cart_id", "product_id", "orientation", "size_id"])
                  .where("project_id", "is", null)
                  .doUpdateSet({ quantity: add })
                  .where(fits),
          )
          .executeTakeFirst();
        return affected(result) > 0;
      });
    },

    async setQuantity(cartId, item, quantity) {
      return db.transaction().execute(async (trx) => {
        if (!(await touchCart(trx, cartId, now()))) return false;
        const result = await trx
          .updateTable("cart_lines")
          .set({ quantity })
          .where(sameLine(cartId, item))
          .executeTakeFirst();
        return affected(result) > 0;
      });
    },

    async remove(cartId, item) {
      return db.transaction().execute(async (trx) => {
        if (!(await touchCart(trx, cartId, now()))) return false;
        const result = await trx.deleteFrom("cart_lines").where(sameLine(cartId, item)).executeTakeFirst();
        return affected(result) > 0;
      });
    },

    lines: async (cartId) =>
      (await reads.readCommitted<LineRow>({ ...linesQuery, parameters: [cartId] })).map(lineOf),

    async revision(cartId) {
      // Asked on every look at the cart page: built and compiled once, run with each id.
      const [row] = await reads.readCommitted<{ revision: number }>({
        ...revisionQuery,
        parameters: [cartId],
      });
      return row === undefined ? undefined : Number(row.revision);
    },

    async itemCount(cartId) {
      // Asked for the header of every page a shopper with a cart sees: compiled once.
      const [row] = await reads.readCommitted<{ total: string | number | null }>({
        ...itemCountQuery,
        parameters: [cartId],
      });
      return Number(row?.total ?? 0);
    },

    address: async (cartId) =>
      cartAddressOf((await reads.readCommitted<AddressRow>({ ...addressQuery, parameters: [cartId] }))[0]),

    async saveAddress(cartId, address) {
      const values = {
        name: address.name,
        street: address.street,
        postcode: address.postcode,
        city: address.city,
        country: address.country,
        email: address.email,
        phone: address.phone ?? null,
        updated_at: now(),
      };
      await db.transaction().execute(async (trx) => {
        if (!(await touchCart(trx, cartId, values.updated_at)))
          throw new Error(`cart ${cartId} does not exist`);
        await trx
          .insertInto("cart_addresses")
          .values({ cart_id: cartId, ...values })
          .onConflict((oc) => oc.column("cart_id").doUpdateSet(values))
          .execute();
      });
    },

    async deleteAbandoned(before) {
      const cutoff = before.toISOString();
      // Lines and address go by the foreign keys' cascade.
      return affected(await db.deleteFrom("carts").where("updated_at", "<", cutoff).executeTakeFirst());
    },
  };
}

/** What a merge could not take as it was: it is told to the shopper. */
export interface MergeOutcome {
  /** Lines whose summed quantity went over the most one line may hold: they hold the most. */
  capped: number;
  /** Lines that found no room (the cart holds as many lines as it may): they stay in `from`. */
  left: number;
}

/**
 * Moves the lines of cart `from` into cart `into` (a browser's cart into its account's, at
 * sign-in): a line both hold is summed, up to `maxQuantity`; a line only `from` holds is
 * added while `into` has room for lines. What moved is deleted from `from`, in the caller's
 * transaction, so a second merge of the same carts (two tabs signing in at once) finds
 * nothing more to add. `into` takes `from`'s address when it has none.
 */
export async function mergeCarts(
  trx: Kysely<Schema>,
  from: string,
  into: string,
  limits: { maxQuantity: number; maxLines: number },
  at = now(),
): Promise<MergeOutcome> {
  // Both carts' rows first, in one order, so two merges never wait for each other.
  for (const id of [from, into].sort()) await touchCart(trx, id, at);
  const incoming = await readLines(trx, from);
  const held = await readLines(trx, into);
  const key = (l: CartItem) =>
    l.projectId ? `project:${l.projectId}` : `${l.productId}/${l.orientation}/${l.sizeId}`;
  const existing = new Map(held.map((l) => [key(l), l]));
  let lines = held.length;
  const outcome: MergeOutcome = { capped: 0, left: 0 };
  let order = Date.parse(at);
  for (const line of incoming) {
    const same = existing.get(key(line));
    const where = (eb: ExpressionBuilder<Schema, "cart_lines">) =>
      line.projectId
        ? eb.and([eb("project_id", "=", line.projectId)])
        : eb.and([
            eb("product_id", "=", line.productId),
            eb("orientation", "=", line.orientation),
            eb("size_id", "=", line.sizeId),
            eb("project_id", "is", null),
          ]);
    if (same) {
      const sum = same.quantity + line.quantity;
      if (sum > limits.maxQuantity) outcome.capped++;
      await trx
        .updateTable("cart_lines")
        .set({ quantity: Math.min(sum, limits.maxQuantity) })
        .where("cart_id", "=", into)
        .where(where)
        .execute();
    } else if (lines < limits.maxLines) {
      lines++;
      await trx
        .insertInto("cart_lines")
        .values({
          cart_id: into,
          product_id: line.productId,
          orientation: line.orientation,
          size_id: line.sizeId,
          project_id: line.projectId ?? null,
          quantity: Math.min(line.quantity, limits.maxQuantity),
          added_at: new Date(order++).toISOString(),
        })
        .execute();
    } else {
      outcome.left++;
      continue;
    }
    await trx.deleteFrom("cart_lines").where("cart_id", "=", from).where(where).execute();
  }
  const address = await readAddress(trx, into);
  const theirs = address ? undefined : await readAddress(trx, from);
  if (theirs) {
    await trx
      .insertInto("cart_addresses")
      .values({
        cart_id: into,
        name: theirs.name,
        street: theirs.street,
        postcode: theirs.postcode,
        city: theirs.city,
        country: theirs.country,
        email: theirs.email,
        phone: theirs.phone ?? null,
        updated_at: at,
      })
      .execute();
  }
  return outcome;
}
