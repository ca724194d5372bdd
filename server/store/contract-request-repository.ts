import { type Kysely, PostgresAdapter, type Selectable } from "kysely";
import {
  type ContractRequestInput,
  type ContractRequestKind,
  contractRequestKinds,
  type NoticeKind,
  noticeKinds,
} from "../domain/contract-requests.ts";
import { emailKey } from "./account-repository.ts";
import { hashLinkToken, isLinkToken } from "./link-token.ts";
import { randomId } from "./random-id.ts";
import type { Schema } from "./schema.ts";

/** A cancellation or withdrawal as it was received (migration 0021). */
export interface ContractRequest extends ContractRequestInput {
  id: string;
  /** The moment of the button: the date and time of receipt. */
  receivedAt: string;
  /** The subscription found for the address, and its account. */
  subscriptionId: string | undefined;
  accountId: string | undefined;
  /** When the mailed link was used, and what it did (JSON of the outcome). */
  confirmedAt: string | undefined;
  outcome: string | undefined;
}

export interface ContractRequestRepository {
  /** How many requests of `kind` the address sent since `since`, read in `trx`. */
  countFrom(trx: Kysely<Schema>, kind: ContractRequestKind, email: string, since: Date): Promise<number>;
  /** Records a request received at `at`, in the caller's transaction (with its mail). */
  insert(
    trx: Kysely<Schema>,
    request: ContractRequestInput,
    found: { subscriptionId: string | undefined; accountId: string | undefined },
    tokenHash: string | undefined,
    at: Date,
  ): Promise<ContractRequest>;
  /**
   * The request whose mailed link carries `token`, of `kind`; read in `trx` under its row lock
   * (PostgreSQL) when given, so two uses of one link take turns.
   */
  byToken(
    token: string,
    kind: ContractRequestKind,
    trx?: Kysely<Schema>,
  ): Promise<ContractRequest | undefined>;
  /** Keeps what using the link did, once: false when it was used already. */
  markConfirmed(trx: Kysely<Schema>, id: string, at: Date, outcome: string): Promise<boolean>;
}

type Row = Selectable<Schema["contract_requests"]>;

const kindOf = (value: string): ContractRequestKind => {
  const kind = contractRequestKinds.find((k) => k === value);
  if (!kind) throw new Error(`a contract request has an unknown kind "${value}"`);
  return kind;
};
const noticeOf = (value: string | null): NoticeKind | undefined => noticeKinds.find((k) => k === value);

function requestOf(row: Row): ContractRequest {
  return {
    id: row.id,
    kind: kindOf(row.kind),
    locale: row.locale === "de" ? "de" : "nl",
    name: row.name,
    email: row.email,
    contractRef: row.contract_ref ?? undefined,
    notice: noticeOf(row.notice),
    reason: row.reason ?? undefined,
    askedEndOn: row.asked_end_on ?? undefined,
    receivedAt: row.received_at,
    subscriptionId: row.subscription_id ?? undefined,
    accountId: row.account_id ?? undefined,
    confirmedAt: row.confirmed_at ?? undefined,
    outcome: row.outcome ?? undefined,
  };
}

export function contractRequestRepository(db: Kysely<Schema>): ContractRequestRepository {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    async countFrom(trx, kind, email, since) {
      const row = await trx
        .selectFrom("contract_requests")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("email_key", "=", emailKey(email))
        .where("kind", "=", kind)
        .where("received_at", ">", since.toISOString())
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    async insert(trx, request, found, tokenHash, at) {
      const row: Row = {
        id: randomId(),
        kind: request.kind,
        locale: request.locale,
        name: request.name,
        email: request.email,
        email_key: emailKey(request.email),
        contract_ref: request.contractRef ?? null,
        notice: request.notice ?? null,
        reason: request.reason ?? null,
        asked_end_on: request.askedEndOn ?? null,
        received_at: at.toISOString(),
        subscription_id: found.subscriptionId ?? null,
        account_id: found.accountId ?? null,
        token_hash: tokenHash ?? null,
        confirmed_at: null,
        outcome: null,
      };
      await trx.insertInto("contract_requests").values(row).execute();
      return requestOf(row);
    },

    async byToken(token, kind, trx) {
      if (!isLinkToken(token)) return undefined;
      const read = (trx ?? db)
        .selectFrom("contract_requests")
        .selectAll()
        .where("token_hash", "=", hashLinkToken(token))
        .where("kind", "=", kind);
      const row = await (trx && isPostgres ? read.forUpdate() : read).executeTakeFirst();
      return row ? requestOf(row) : undefined;
    },

    async markConfirmed(trx, id, at, outcome) {
      const result = await trx
        .updateTable("contract_requests")
        .set({ confirmed_at: at.toISOString(), outcome })
        .where("id", "=", id)
        .where("confirmed_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
