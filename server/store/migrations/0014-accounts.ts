import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";
import { randomId } from "../random-id.ts";

/**
 * Customer accounts (server/store/account-repository.ts):
 * - `accounts`: who signs in: address, name, password hash, and what is theirs on every
 *   device (the owner id their photos and projects carry, their cart).
 * - `sessions`: one row per signed-in browser, only the hash of its cookie's token stored;
 *   deleting rows signs out, on every instance at once.
 * - `account_tokens`: single-use links (password reset, a new address), hashed.
 * - `addresses`: an account's delivery addresses, offered at the checkout.
 * - `orders.account_id`: the account an order belongs to.
 * - `subscriptions` lose the subscriber's name, address and password to the account they
 *   belong to now (`account_id`, one subscription per account); every subscription becomes
 *   an account as it is, confirmed when its address was confirmed by a sign-up link.
 * - `subscription_signups` becomes `signups`: a sign-up waiting for its link may be for an
 *   account alone, for an account with a subscription (a plan), or for an account made
 *   from an order ("Bewaar je gegevens": the order it came from).
 */
export const accounts: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

    await db.schema
      .createTable("accounts")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("email", "text", (c) => c.notNull())
      // Lower-cased and trimmed: one account per address, however it is typed.
      .addColumn("email_key", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      // Null for an account whose address was never confirmed (made before links existed).
      .addColumn("email_confirmed_at", "text")
      // The shopper id the account's photos and projects carry, set as the browser's cookie at sign-in.
      .addColumn("owner_id", "text", (c) => c.notNull())
      .addColumn("cart_id", "text", (c) => c.references("carts.id").onDelete("set null"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("sessions")
      // sha256 of the cookie's token, hex: a leaked table signs nobody in.
      .addColumn("token_hash", "text", (c) => c.primaryKey())
      .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("last_seen_at", "text", (c) => c.notNull())
      // The absolute end, whatever the activity.
      .addColumn("expires_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("sessions_account").on("sessions").column("account_id").execute();

    await db.schema
      .createTable("account_tokens")
      .addColumn("token_hash", "text", (c) => c.primaryKey())
      .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      // "reset-password" or "change-email"
      .addColumn("purpose", "text", (c) => c.notNull())
      .addColumn("new_email", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("used_at", "text")
      .execute();
    await db.schema
      .createIndex("account_tokens_account")
      .on("account_tokens")
      .columns(["account_id", "purpose"])
      .execute();

    await db.schema
      .createTable("addresses")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("street", "text", (c) => c.notNull())
      .addColumn("postcode", "text", (c) => c.notNull())
      .addColumn("city", "text", (c) => c.notNull())
      .addColumn("country", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("phone", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("addresses_account").on("addresses").column("account_id").execute();

    await db.schema
      .alterTable("orders")
      .addColumn("account_id", "text", (c) => c.references("accounts.id").onDelete("set null"))
      .execute();
    await db.schema.createIndex("orders_account").on("orders").column("account_id").execute();

    // Every subscription becomes an account as it is.
    const raw = db as Kysely<Record<string, Record<string, unknown>>>;
    const subscriptions = await raw
      .selectFrom("subscriptions")
      .select(["id", "owner_id", "name", "email", "email_key", "password_hash", "locale", "created_at"])
      .execute();
    const confirmed = new Set(
      (
        await raw
          .selectFrom("subscription_signups")
          .select("subscription_id")
          .where("subscription_id", "is not", null)
          .execute()
      ).map((row) => String(row.subscription_id)),
    );
    for (const row of subscriptions) {
      await raw
        .insertInto("accounts")
        .values({
          id: randomId(),
          email: row.email,
          email_key: row.email_key,
          name: row.name,
          password_hash: row.password_hash,
          locale: row.locale,
          email_confirmed_at: confirmed.has(String(row.id)) ? row.created_at : null,
          owner_id: row.owner_id ?? randomId(),
          cart_id: null,
          created_at: row.created_at,
          updated_at: row.created_at,
        })
        .execute();
    }

    if (isPostgres) {
      await sql`alter table subscriptions add column account_id text references accounts(id) on delete set null`.execute(
        db,
      );
      await sql`update subscriptions set account_id = a.id from accounts a where a.email_key = subscriptions.email_key`.execute(
        db,
      );
      for (const column of ["name", "email", "email_key", "password_hash"]) {
        await sql`alter table subscriptions drop column ${sql.ref(column)}`.execute(db);
      }
      await sql`alter table subscription_signups rename to signups`.execute(db);
      await sql`alter index subscription_signups_created rename to signups_created`.execute(db);
      for (const column of ["plan_id", "monthly_cents"]) {
        await sql`alter table signups alter column ${sql.ref(column)} drop not null`.execute(db);
      }
    } else {
      await rebuildSubscriptions(db, "after");
      await rebuildSignupsOnSqlite(db);
    }
    await db.schema
      .createIndex("subscriptions_account")
      .on("subscriptions")
      .column("account_id")
      .unique()
      .execute();
    await db.schema
      .alterTable("signups")
      .addColumn("order_id", isPostgres ? "bigint" : "integer", (c) =>
        c.references("orders.id").onDelete("set null"),
      )
      .execute();
    await db.schema.alterTable("signups").addColumn("account_id", "text").execute();
  },

  async down(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    // Subscriptions take their subscriber's name, address and password back; one whose
    // account was deleted has none to take, and goes.
    await sql`delete from subscriptions where account_id is null`.execute(db);
    if (isPostgres) {
      for (const column of ["name", "email", "email_key", "password_hash"]) {
        await sql`alter table subscriptions add column ${sql.ref(column)} text`.execute(db);
      }
      await sql`update subscriptions set name = a.name, email = a.email, email_key = a.email_key, password_hash = a.password_hash
        from accounts a where a.id = subscriptions.account_id`.execute(db);
      for (const column of ["name", "email", "email_key", "password_hash"]) {
        await sql`alter table subscriptions alter column ${sql.ref(column)} set not null`.execute(db);
      }
      await sql`alter table subscriptions add constraint subscriptions_email_key_key unique (email_key)`.execute(
        db,
      );
      await db.schema.dropIndex("subscriptions_account").execute();
      await sql`alter table subscriptions drop column account_id`.execute(db);
      await sql`alter table signups drop column order_id`.execute(db);
      await sql`alter table signups drop column account_id`.execute(db);
      await sql`delete from signups where plan_id is null`.execute(db);
      for (const column of ["plan_id", "monthly_cents"]) {
        await sql`alter table signups alter column ${sql.ref(column)} set not null`.execute(db);
      }
      await sql`alter index signups_created rename to subscription_signups_created`.execute(db);
      await sql`alter table signups rename to subscription_signups`.execute(db);
    } else {
      await rebuildSubscriptions(db, "before");
      await sql`delete from signups where plan_id is null`.execute(db);
      await db.schema
        .createTable("subscription_signups")
        .addColumn("token_hash", "text", (c) => c.primaryKey())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("email_key", "text", (c) => c.notNull())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("plan_id", "text", (c) => c.notNull())
        .addColumn("monthly_cents", "integer", (c) => c.notNull())
        .addColumn("offer_cents", "integer")
        .addColumn("offer_months", "integer")
        .addColumn("password_hash", "text", (c) => c.notNull())
        .addColumn("locale", "text", (c) => c.notNull())
        .addColumn("owner_id", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("used_at", "text")
        .addColumn("subscription_id", "text")
        .execute();
      await sql`insert into subscription_signups select token_hash, email, email_key, name, plan_id, monthly_cents,
        offer_cents, offer_months, password_hash, locale, owner_id, created_at, used_at, subscription_id from signups`.execute(
        db,
      );
      await db.schema.dropTable("signups").execute();
      await db.schema
        .createIndex("subscription_signups_created")
        .on("subscription_signups")
        .column("created_at")
        .execute();
    }
    await db.schema.dropIndex("orders_account").execute();
    await db.schema.alterTable("orders").dropColumn("account_id").execute();
    await db.schema.dropTable("addresses").execute();
    await db.schema.dropTable("account_tokens").execute();
    await db.schema.dropTable("sessions").execute();
    await db.schema.dropTable("accounts").execute();
  },
};

/**
 * SQLite cannot drop a column that a unique constraint names, and dropping a table that
 * others refer to deletes their rows (foreign keys are on): the subscriptions table and the
 * two that refer to it are made again beside the old ones, filled, and renamed into place.
 * "after" gives subscriptions an account and no subscriber's details; "before" the reverse.
 */
async function rebuildSubscriptions(db: Kysely<unknown>, shape: "after" | "before") {
  let table = db.schema
    .createTable("subscriptions_next")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_id", "text");
  table =
    shape === "after"
      ? table.addColumn("account_id", "text", (c) => c.references("accounts.id").onDelete("set null"))
      : table
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("email", "text", (c) => c.notNull())
          .addColumn("email_key", "text", (c) => c.notNull().unique())
          .addColumn("password_hash", "text", (c) => c.notNull());
  await table
    .addColumn("plan_id", "text", (c) => c.notNull())
    .addColumn("monthly_cents", "integer", (c) => c.notNull())
    .addColumn("offer_cents", "integer")
    .addColumn("offer_months", "integer")
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("awaiting_payment"))
    .addColumn("paid_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  const shared = sql.raw(
    "s.id, s.owner_id, s.plan_id, s.monthly_cents, s.offer_cents, s.offer_months, s.locale, s.status, s.paid_until, s.created_at",
  );
  if (shape === "after") {
    // Each subscription's account has its address: that is how they are matched.
    await sql`insert into subscriptions_next (id, owner_id, plan_id, monthly_cents, offer_cents, offer_months, locale, status, paid_until, created_at, account_id)
      select ${shared}, a.id from subscriptions s left join accounts a on a.email_key = s.email_key`.execute(
      db,
    );
  } else {
    await sql`insert into subscriptions_next (id, owner_id, plan_id, monthly_cents, offer_cents, offer_months, locale, status, paid_until, created_at, name, email, email_key, password_hash)
      select ${shared}, a.name, a.email, a.email_key, a.password_hash from subscriptions s join accounts a on a.id = s.account_id`.execute(
      db,
    );
  }

  await db.schema
    .createTable("subscription_transitions_next")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("subscription_id", "text", (c) =>
      c.notNull().references("subscriptions_next.id").onDelete("cascade"),
    )
    .addColumn("from_status", "text", (c) => c.notNull())
    .addColumn("to_status", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("payment_id", "text")
    .addColumn("at", "text", (c) => c.notNull())
    .execute();
  await sql`insert into subscription_transitions_next select * from subscription_transitions
    where subscription_id in (select id from subscriptions_next)`.execute(db);

  await db.schema
    .createTable("subscription_payments_next")
    .addColumn("payment_id", "text", (c) => c.primaryKey())
    .addColumn("subscription_id", "text", (c) =>
      c.notNull().references("subscriptions_next.id").onDelete("cascade"),
    )
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("attempt", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("checkout_url", "text", (c) => c.notNull())
    .addColumn("failure_mailed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint(`subscription_payments_attempt_${shape}`, ["subscription_id", "attempt"])
    .execute();
  await sql`insert into subscription_payments_next select * from subscription_payments
    where subscription_id in (select id from subscriptions_next)`.execute(db);

  // The old children first: nothing refers to the old subscriptions when they go.
  await db.schema.dropTable("subscription_payments").execute();
  await db.schema.dropTable("subscription_transitions").execute();
  await db.schema.dropTable("subscriptions").execute();
  // Renaming a table renames the foreign keys that name it in other tables.
  await db.schema.alterTable("subscriptions_next").renameTo("subscriptions").execute();
  await db.schema.alterTable("subscription_transitions_next").renameTo("subscription_transitions").execute();
  await db.schema.alterTable("subscription_payments_next").renameTo("subscription_payments").execute();
  await db.schema.createIndex("subscriptions_owner").on("subscriptions").column("owner_id").execute();
  await db.schema
    .createIndex("subscriptions_status_created")
    .on("subscriptions")
    .columns(["status", "created_at"])
    .execute();
  await db.schema
    .createIndex("subscription_transitions_subscription")
    .on("subscription_transitions")
    .column("subscription_id")
    .execute();
}

/** plan_id and the prices become optional: SQLite makes the table again (nothing refers to it). */
async function rebuildSignupsOnSqlite(db: Kysely<unknown>) {
  await db.schema
    .createTable("signups")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("email_key", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("plan_id", "text")
    .addColumn("monthly_cents", "integer")
    .addColumn("offer_cents", "integer")
    .addColumn("offer_months", "integer")
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("owner_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("subscription_id", "text")
    .execute();
  await sql`insert into signups select * from subscription_signups`.execute(db);
  await db.schema.dropTable("subscription_signups").execute();
  await db.schema.createIndex("signups_created").on("signups").column("created_at").execute();
}
