import type { Kysely } from "kysely";
import type { DeliveryAddress } from "../domain/delivery-address.ts";
import { isDeliveryCountry } from "../domain/postcode.ts";
import { addressOf } from "./cart-repository.ts";
import { type PageViewReads, readsThrough } from "./database.ts";
import { randomId } from "./random-id.ts";
import type { Schema } from "./schema.ts";

export interface SavedAddress extends DeliveryAddress {
  id: string;
}

/** An account's delivery addresses, newest use first: what the checkout offers. */
export interface AddressBookRepository {
  list(accountId: string): Promise<SavedAddress[]>;
  get(accountId: string, id: string): Promise<SavedAddress | undefined>;
  /** Adds an address, or brings the same one (every field alike) to the top. Answers its id. */
  save(db: Kysely<Schema>, accountId: string, address: DeliveryAddress, at: Date): Promise<string>;
  update(accountId: string, id: string, address: DeliveryAddress, at: Date): Promise<boolean>;
  remove(accountId: string, id: string): Promise<boolean>;
}

/** More addresses than anyone ships to: the book is no place to store things. */
export const addressesPerAccount = 20;

const same = (a: DeliveryAddress, b: DeliveryAddress) =>
  a.name === b.name &&
  a.street === b.street &&
  a.postcode === b.postcode &&
  a.city === b.city &&
  a.country === b.country &&
  a.email === b.email &&
  (a.phone ?? "") === (b.phone ?? "");

export function addressBookRepository(
  db: Kysely<Schema>,
  /** Where the reads of every page view go (database.ts); by default through Kysely. */
  reads: PageViewReads = readsThrough(db),
): AddressBookRepository {
  const query = (trx: Kysely<Schema>, accountId: string) =>
    trx
      .selectFrom("addresses")
      .selectAll()
      .where("account_id", "=", accountId)
      .orderBy("updated_at", "desc")
      .orderBy("id");
  const rows = (trx: Kysely<Schema>, accountId: string) => query(trx, accountId).execute();
  // The checkout's address step asks for the list on every look of a signed-in browser, and
  // its kept copy's check again: compiled once with a stand-in id, run with each one.
  const listQuery = query(db, "").compile();

  const toSaved = (row: Awaited<ReturnType<typeof rows>>[number]): SavedAddress[] =>
    // A country the shop stopped delivering to is left out: the shopper gives it again.
    isDeliveryCountry(row.country) ? [{ id: row.id, ...addressOf({ ...row, country: row.country }) }] : [];

  const columns = (address: DeliveryAddress) => ({
    name: address.name,
    street: address.street,
    postcode: address.postcode,
    city: address.city,
    country: address.country,
    email: address.email,
    phone: address.phone ?? null,
  });

  return {
    async list(accountId) {
      type Row = Awaited<ReturnType<typeof rows>>[number];
      return (await reads.readCommitted<Row>({ ...listQuery, parameters: [accountId] })).flatMap(toSaved);
    },

    async get(accountId, id) {
      const row = await db
        .selectFrom("addresses")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? toSaved(row)[0] : undefined;
    },

    async save(trx, accountId, address, at) {
      const existing = (await rows(trx, accountId)).flatMap(toSaved);
      const known = existing.find((a) => same(a, address));
      if (known) {
        await trx
          .updateTable("addresses")
          .set({ updated_at: at.toISOString() })
          .where("id", "=", known.id)
          .execute();
        return known.id;
      }
      // The book keeps its newest addresses; the oldest makes way.
      for (const old of existing.slice(addressesPerAccount - 1)) {
        await trx.deleteFrom("addresses").where("id", "=", old.id).execute();
      }
      const id = randomId();
      await trx
        .insertInto("addresses")
        .values({
          id,
          account_id: accountId,
          ...columns(address),
          created_at: at.toISOString(),
          updated_at: at.toISOString(),
        })
        .execute();
      return id;
    },

    async update(accountId, id, address, at) {
      const result = await db
        .updateTable("addresses")
        .set({ ...columns(address), updated_at: at.toISOString() })
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async remove(accountId, id) {
      const result = await db
        .deleteFrom("addresses")
        .where("account_id", "=", accountId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
