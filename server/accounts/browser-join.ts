import { type Kysely, PostgresAdapter } from "kysely";
import { type MergeOutcome, mergeCarts } from "../store/cart-repository.ts";
import type { Schema } from "../store/schema.ts";

/** What a browser holds of its own before it signs in: its cart and its photos' owner id. */
export interface BrowserHoldings {
  cartId: string | undefined;
  shopperId: string | undefined;
}

/**
 * Brings what the browser made before signing in to the account, in one transaction holding
 * the account's row (two tabs signing in at once take turns, and the second finds nothing
 * left to bring):
 * - its cart joins the account's: lines summed within the limits (mergeCarts), or, when the
 *   account has no cart yet, it becomes the account's cart;
 * - orders placed from that cart become the account's;
 * - its photos, projects and subscription move to the account's owner id.
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
    if (browser.cartId && browser.cartId !== cartId) {
      const theirs = browser.cartId;
      const accountCart = cartId
        ? await trx.selectFrom("carts").select("id").where("id", "=", cartId).executeTakeFirst()
        : undefined;
      const browserCart = await trx
        .selectFrom("carts")
        .select("id")
        .where("id", "=", theirs)
        .executeTakeFirst();
      if (accountCart && browserCart) {
        merged = await mergeCarts(trx, theirs, accountCart.id, limits, at.toISOString());
      } else if (browserCart) {
        cartId = theirs;
        await trx.updateTable("accounts").set({ cart_id: theirs }).where("id", "=", accountId).execute();
      }
      await trx
        .updateTable("orders")
        .set({ account_id: accountId })
        .where("cart_id", "=", theirs)
        .where("account_id", "is", null)
        .execute();
    }
    const owner = account.owner_id;
    if (browser.shopperId && browser.shopperId !== owner) {
      for (const table of ["uploads", "photo_projects", "subscriptions"] as const) {
        await trx
          .updateTable(table)
          .set({ owner_id: owner })
          .where("owner_id", "=", browser.shopperId)
          .execute();
      }
    }
    return { cartId, ownerId: owner, ...(merged ? { merged } : {}) };
  });
}
