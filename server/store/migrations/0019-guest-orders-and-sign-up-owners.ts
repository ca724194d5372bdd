import type { Kysely, Migration } from "kysely";

/**
 * What the sign-in before ADR 0089 made an account's that was not (ADR 0094):
 *
 * - Orders it moved into the account that can be told apart from the account's own are
 *   guest orders again: openable by their own link (`?code=`) and claimable through the
 *   claim flow (routes/order-claim.ts). Those are the orders placed before their account
 *   existed, so placed by a guest, that none of the three proven ways brought in: the
 *   order's address is the account's ("Bewaar je gegevens", or an order the account could
 *   claim by its own mailbox), a claim link the order's address used, or an account that
 *   changed its address since (then the order may be from the address it had, which no
 *   row keeps: it stays). Orders placed as a guest after the account existed cannot be
 *   told from the account's own, and stay (ADR 0094 says why).
 * - Sign-ups still waiting for their link name the browser's guest shopper id of before,
 *   not one of their own: their link makes the account without any guest's photos.
 */
export const guestOrdersAndSignupOwners: Migration = {
  async up(db: Kysely<unknown>) {
    // Typed as the tables stood at 0018: the migration must not follow later changes of schema.ts.
    const old = db as unknown as Kysely<Tables>;
    await old.updateTable("signups").set({ owner_id: null }).where("used_at", "is", null).execute();

    const placedBeforeTheirAccount = await old
      .selectFrom("orders")
      .innerJoin("accounts", "accounts.id", "orders.account_id")
      .select([
        "orders.id as id",
        "orders.email as email",
        "accounts.id as accountId",
        "accounts.email_key as key",
      ])
      .whereRef("orders.created_at", "<", "accounts.created_at")
      .execute();
    if (placedBeforeTheirAccount.length === 0) return;
    const used = await old
      .selectFrom("account_tokens")
      .select(["account_id", "purpose", "order_id"])
      .where("purpose", "in", ["claim-order", "change-email"])
      .where("used_at", "is not", null)
      .execute();
    const claimed = new Set(
      used.filter((t) => t.purpose === "claim-order").map((t) => `${t.account_id} ${Number(t.order_id)}`),
    );
    const movedAddress = new Set(used.filter((t) => t.purpose === "change-email").map((t) => t.account_id));
    const back = placedBeforeTheirAccount
      .filter(
        (o) =>
          // The key as account-repository's emailKey made it when "Bewaar je gegevens" compared them.
          o.email.trim().toLowerCase() !== o.key &&
          !claimed.has(`${o.accountId} ${Number(o.id)}`) &&
          !movedAddress.has(o.accountId),
      )
      .map((o) => Number(o.id));
    for (let i = 0; i < back.length; i += 500) {
      await old
        .updateTable("orders")
        .set({ account_id: null })
        .where("id", "in", back.slice(i, i + 500))
        .execute();
    }
  },

  async down() {
    // Nothing to undo: giving the orders back to the accounts the old sign-in chose would
    // repeat its fault, and the sign-ups' former owner ids are not kept.
  },
};

interface Tables {
  orders: { id: number; email: string; account_id: string | null; created_at: string };
  accounts: { id: string; email_key: string; created_at: string };
  account_tokens: { account_id: string; purpose: string; order_id: number | null; used_at: string | null };
  signups: { owner_id: string | null; used_at: string | null };
}
