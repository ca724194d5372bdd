import { type Kysely, PostgresAdapter } from "kysely";
import { type MergeOutcome, mergeCarts } from "../store/cart-repository.ts";
import { moveLineProjects } from "../store/photo-ownership.ts";
import { randomId } from "../store/random-id.ts";
import type { Schema } from "../store/schema.ts";

/** What a browser holds of its own before it signs in: its cart. */
export interface BrowserHoldings {
  cartId: string | undefined;
}

/**
 * Brings the lines of the browser's guest cart into the account's cart, in one transaction
 * holding the account's row (two tabs signing in at once take turns, and the second finds
 * nothing left to bring). One browser may have been used by several people (ADR 0089), so
 * nothing else of the browser's becomes the account's:
 * - the guest cart's id never becomes the account's: an account without a cart gets a new
 *   one, so an id someone may have seen before signing in opens nothing of the account;
 * - a cart that is another account's is never joined (its lines stay where they are);
 * - orders placed from the browser stay where they are: a guest's order joins an account
 *   only through a link mailed to its own address (routes/order-claim.ts);
 * - photos and projects keep their owner id, except the photo books the joined lines order:
 *   those go with their lines, their photos too (ADR 0094), so the account can open, change
 *   and order them.
 * Answers the account's cart and what the merge could not take as it was.
 */
export async function joinAccount(
  db: Kysely<Schema>,
  accountId: string,
  browser: BrowserHoldings,
  limits: { maxQuantity: number; maxLines: number },
  at: Date,
): Promise<{ cartId: string | undefined; ownerId: string; merged?: MergeOutcome }> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return db.transaction().execute(async (trx) => {
    const read = trx.selectFrom("accounts").select(["cart_id", "owner_id"]).where("id", "=", accountId);
    const account = await (isPostgres ? read.forUpdate() : read).executeTakeFirstOrThrow();
    let cartId = account.cart_id ?? undefined;
    let merged: MergeOutcome | undefined;
    const theirs = browser.cartId;
    if (theirs && theirs !== cartId && (await isGuestCart(trx, theirs))) {
      const accountCart = cartId
        ? await trx.selectFrom("carts").select("id").where("id", "=", cartId).executeTakeFirst()
        : undefined;
      if (!accountCart) {
        cartId = randomId();
        const stamp = at.toISOString();
        await trx.insertInto("carts").values({ id: cartId, created_at: stamp, updated_at: stamp }).execute();
        await trx.updateTable("accounts").set({ cart_id: cartId }).where("id", "=", accountId).execute();
      }
      const books = await lineProjects(trx, theirs);
      const outcome = await mergeCarts(trx, theirs, cartId as string, limits, at.toISOString());
      // Into a new cart every line simply moves: only a join with the account's lines is a merge to tell.
      if (accountCart) merged = outcome;
      // A line that did not fit stays in the guest cart, and its book with the guest.
      const joined = new Set(await lineProjects(trx, cartId as string));
      await moveLineProjects(
        trx,
        books.filter((id) => joined.has(id)),
        account.owner_id,
      );
    }
    return { cartId, ownerId: account.owner_id, ...(merged ? { merged } : {}) };
  });
}

/** The photo books a cart's lines order. */
async function lineProjects(trx: Kysely<Schema>, cartId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom("cart_lines")
    .select("project_id")
    .where("cart_id", "=", cartId)
    .where("project_id", "is not", null)
    .execute();
  return rows.flatMap((row) => (row.project_id ? [row.project_id] : []));
}

/** A cart that exists and is no account's. */
async function isGuestCart(trx: Kysely<Schema>, cartId: string): Promise<boolean> {
  const cart = await trx.selectFrom("carts").select("id").where("id", "=", cartId).executeTakeFirst();
  if (!cart) return false;
  const holder = await trx
    .selectFrom("accounts")
    .select("id")
    .where("cart_id", "=", cartId)
    .executeTakeFirst();
  return holder === undefined;
}
