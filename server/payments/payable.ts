import type { FastifyBaseLogger } from "fastify";
import { type Kysely, PostgresAdapter } from "kysely";
import type { Locale } from "../i18n/locales.ts";
import { enqueueMail, type OutgoingMail } from "../mail/outbox.ts";
import type { Schema } from "../store/schema.ts";
import {
  type CreatePaymentInput,
  isFinalStatus,
  isPaymentStatus,
  type PaymentProvider,
  PaymentProviderUnavailable,
  type PaymentStatus,
  type ProviderPayment,
} from "./provider.ts";

/**
 * What the shop sells for money through a provider: an order, or a subscription's first
 * period. Each has a table of the payments the shop started for it (order_payments,
 * subscription_payments: the same columns but the one naming what is paid for) and a
 * lifecycle that a payment's outcome is applied to. This module is the part they share:
 * at most one open payment each, attempts numbered into the provider's idempotency key, the
 * provider's word fetched by the shop itself, and the failed-payment mail once per payment.
 */
export type PaymentTable = "order_payments" | "subscription_payments";

/** The thing paid for, as the payments need to see it. */
export interface PayableSubject {
  /** Its id as the payment table stores it. */
  id: string;
  locale: Locale;
  /** What a new payment asks for. */
  amountCents: number;
  /** Its current status, as its lifecycle names it. */
  status: string;
}

/** What a lifecycle did with a payment's outcome. */
export type Applied =
  | { kind: "changed"; to: string }
  | { kind: "unchanged"; status: string }
  | { kind: "refused"; status: string; reason: string }
  | { kind: "unknown" };

/** A lifecycle's own answer (orders say "unknown-order", subscriptions "unknown-subscription"), as Applied. */
export function appliedOf(
  result:
    | { kind: "changed"; to: string }
    | { kind: "unchanged"; status: string }
    | { kind: "refused"; status: string; reason: string }
    | { kind: `unknown-${string}` },
): Applied {
  switch (result.kind) {
    case "changed":
    case "unchanged":
    case "refused":
      return result as Applied;
    default:
      return { kind: "unknown" };
  }
}

export type FailureEvent = "payment_failed" | "payment_cancelled" | "payment_expired";

export interface PayableKind<S extends PayableSubject> {
  /** For idempotency keys and logs: "order-12-1", "subscription-Xy…-2". */
  name: "order" | "subscription";
  table: PaymentTable;
  /** The payment table's column naming the subject, and the subject's own table. */
  subjectColumn: "order_id" | "subscription_id";
  subjectTable: "orders" | "subscriptions";
  load(id: string): Promise<S | undefined>;
  awaitsPayment(status: string): boolean;
  /** Description and metadata for the provider; the page the shopper returns to (a path). */
  describe(subject: S): { description: string; pagePath: string; metadata: Record<string, string> };
  /** Applies a paid payment through the lifecycle; whatever it mails is queued inside. */
  /** `pageUrl`: the subject's page (pageUrlOf), for a mail the change queues. */
  applyPaid(
    subject: S,
    paymentId: string,
    amountCents: number,
    at: Date,
    pageUrl: string,
    payment: ProviderPayment,
  ): Promise<Applied>;
  applyFailure(subject: S, event: FailureEvent, paymentId: string, at: Date): Promise<Applied>;
  /** The "payment failed" mail, with a link to the page where the shopper pays again. */
  failureMail(subject: S, pageUrl: string): OutgoingMail;
  /**
   * What a new payment needs beyond the subject itself: the provider's customer whose
   * mandate the payment is to create (a subscription's first payment). Asked before each
   * new payment; may call the provider.
   */
  prepare?(subject: S): Promise<{ firstOfCustomer?: string }>;
}

export interface PayableDeps {
  db: Kysely<Schema>;
  provider: PaymentProvider;
  log: Pick<FastifyBaseLogger, "info" | "warn" | "error">;
  now: () => Date;
  /** Told after mail was queued, so it goes out now rather than at the next poll. */
  mailQueued: () => void;
  /** The shop's webhook path (one for every provider and language). */
  webhookPath: string;
}

export type StartResult =
  | { kind: "started"; checkoutUrl: string }
  | { kind: "not-payable"; status: string }
  | { kind: "unavailable" }
  | { kind: "unknown" };

export interface Payments {
  start(subjectId: string, options: { origin: string; method?: string }): Promise<StartResult>;
  /** Undefined for a payment id this kind never started, or a subject that is gone. */
  sync(paymentId: string): Promise<{ subjectId: string; status: string } | undefined>;
  latest(subjectId: string): Promise<{ paymentId: string; status: PaymentStatus } | undefined>;
}

/** The tables this module reads, as one shape: a subject's id is compared as text. */
type LedgerTable = Omit<Schema["order_payments"], "order_id">;
interface LedgerSchema {
  order_payments: LedgerTable;
  subscription_payments: LedgerTable;
  orders: { id: string; status: string };
  subscriptions: { id: string; status: string };
}

interface LedgerRow {
  paymentId: string;
  subjectId: string;
  attempt: number;
  status: PaymentStatus;
  amountCents: number;
  checkoutUrl: string;
}

/** The provider's statuses that end a payment without money, as the lifecycles' events. */
const failureEvents: Partial<Record<PaymentStatus, FailureEvent>> = {
  failed: "payment_failed",
  canceled: "payment_cancelled",
  expired: "payment_expired",
};

/** Method ids as providers write them (ideal, creditcard, ...); anything else is never sent. */
const methodIdPattern = /^[a-z0-9_]{1,40}$/;

function storedStatus(value: string): PaymentStatus {
  // A status the shop did not write is treated as undecided: it is asked again, never acted on.
  return isPaymentStatus(value) ? value : "open";
}

/**
 * The payments of one kind of payable. The provider's word, fetched by the shop itself, is
 * what counts: never a return redirect or a webhook's body.
 */
export function payablePayments<S extends PayableSubject>(kind: PayableKind<S>, deps: PayableDeps): Payments {
  const { provider, log, now, mailQueued } = deps;
  // The two payment tables have the same columns but the subject's: one query shape for both.
  const db = deps.db as unknown as Kysely<LedgerSchema>;
  const isPostgres = deps.db.getExecutor().adapter instanceof PostgresAdapter;
  const subject = db.dynamic.ref<string>(kind.subjectColumn);

  const rowOf = (row: Record<string, unknown>): LedgerRow => ({
    paymentId: String(row.payment_id),
    subjectId: String(row[kind.subjectColumn]),
    attempt: Number(row.attempt),
    status: storedStatus(String(row.status)),
    amountCents: Number(row.amount_cents),
    checkoutUrl: String(row.checkout_url),
  });

  const paymentRow = async (paymentId: string) => {
    const row = await db
      .selectFrom(kind.table)
      .selectAll()
      .where("payment_id", "=", paymentId)
      .executeTakeFirst();
    return row ? rowOf(row) : undefined;
  };

  const latestRow = async (subjectId: string) => {
    const row = await db
      .selectFrom(kind.table)
      .selectAll()
      .where(subject, "=", subjectId)
      .orderBy("attempt", "desc")
      .limit(1)
      .executeTakeFirst();
    return row ? rowOf(row) : undefined;
  };

  const remember = async (paymentId: string, status: PaymentStatus) => {
    await db
      .updateTable(kind.table)
      .set({ status, updated_at: now().toISOString() })
      .where("payment_id", "=", paymentId)
      .execute();
  };

  /**
   * The "payment failed" mail, once per payment: the payment's row is marked in the same
   * transaction that queues it, so a replayed webhook finds it marked. No mail when the
   * subject no longer waits for payment, or when a newer payment was already started.
   */
  async function mailFailure(row: LedgerRow, mail: OutgoingMail) {
    const at = now();
    const queued = await db.transaction().execute(async (trx) => {
      const read = trx.selectFrom(kind.subjectTable).select("status").where("id", "=", row.subjectId);
      const current = await (isPostgres ? read.forUpdate() : read).executeTakeFirst();
      if (!current || !kind.awaitsPayment(current.status)) return false;
      const newer = await trx
        .selectFrom(kind.table)
        .select("payment_id")
        .where(subject, "=", row.subjectId)
        .where("attempt", ">", row.attempt)
        .executeTakeFirst();
      if (newer) return false;
      const marked = await trx
        .updateTable(kind.table)
        .set({ failure_mailed_at: at.toISOString() })
        .where("payment_id", "=", row.paymentId)
        .where("failure_mailed_at", "is", null)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return false;
      await enqueueMail(trx as unknown as Kysely<Schema>, mail, at);
      return true;
    });
    if (queued) mailQueued();
  }

  /** The subject's page, absolute when the payment carries the address it was started from. */
  const pageUrlOf = (payable: S, payment: ProviderPayment) => {
    const stored = payment.metadata.pageUrl ?? payment.metadata.orderUrl;
    const path = kind.describe(payable).pagePath;
    return stored?.endsWith(path) ? stored : path;
  };

  async function sync(paymentId: string) {
    if (!provider.isPaymentId(paymentId)) return undefined;
    const row = await paymentRow(paymentId);
    if (!row) return undefined;
    const payment = await provider.getPayment(paymentId);
    const payable = await kind.load(row.subjectId);
    if (!payment || !payable) return undefined;
    const result = (status: string) => ({ subjectId: row.subjectId, status });

    // "paid" is written only once the subject took it: while its mail cannot be queued the
    // row stays undecided, so its page and "pay again" ask the provider again instead of
    // taking it as settled (and starting a second payment).
    if (payment.status !== "paid") {
      if (payment.status !== row.status) await remember(paymentId, payment.status);
    } else {
      if (payment.amountCents !== row.amountCents) {
        await remember(paymentId, payment.status);
        log.error(
          { paymentId, [kind.name]: row.subjectId, paid: payment.amountCents, asked: row.amountCents },
          `a payment was paid for another amount than the shop asked: the ${kind.name} stays as it is; check it by hand`,
        );
        return result(payable.status);
      }
      const applied = await kind.applyPaid(
        payable,
        paymentId,
        payment.amountCents,
        now(),
        pageUrlOf(payable, payment),
        payment,
      );
      if (row.status !== "paid") await remember(paymentId, "paid");
      switch (applied.kind) {
        case "changed":
          mailQueued();
          return result(applied.to);
        case "unchanged":
          return result(applied.status);
        case "refused":
          // Money was taken for something that cannot take it: a person refunds or reinstates.
          log.error(
            { paymentId, [kind.name]: row.subjectId, status: applied.status },
            `payment refused: ${applied.reason}`,
          );
          return result(applied.status);
        case "unknown":
          return undefined;
      }
    }

    const failure = failureEvents[payment.status];
    if (failure) {
      const applied = await kind.applyFailure(payable, failure, paymentId, now());
      if (applied.kind === "unknown") return undefined;
      const status = applied.kind === "changed" ? applied.to : applied.status;
      if (kind.awaitsPayment(status))
        await mailFailure(row, kind.failureMail(payable, pageUrlOf(payable, payment)));
      return result(status);
    }

    // Still open, pending or authorized: nothing is decided yet.
    return result(payable.status);
  }

  /** The method as asked, when the provider offers it for this amount; else the provider's page asks. */
  async function offeredMethod(payable: S, method: string | undefined) {
    if (!method || !methodIdPattern.test(method)) return undefined;
    const offered = await provider.listMethods({ amountCents: payable.amountCents, locale: payable.locale });
    return offered.some((m) => m.id === method) ? method : undefined;
  }

  /** The payment input for a subject; the same subject and attempt always give the same key. */
  function paymentInput(
    payable: S,
    attempt: number,
    origin: string,
    method: string | undefined,
    prepared: { firstOfCustomer?: string },
  ): CreatePaymentInput {
    const { description, pagePath, metadata } = kind.describe(payable);
    const pageUrl = `${origin}${pagePath}`;
    return {
      amountCents: payable.amountCents,
      description,
      locale: payable.locale,
      redirectUrl: pageUrl,
      webhookUrl: `${origin}${deps.webhookPath}`,
      idempotencyKey: `${kind.name}-${payable.id}-${attempt}`,
      metadata: { ...metadata, pageUrl },
      ...(method ? { method } : {}),
      ...(prepared.firstOfCustomer ? { firstOfCustomer: prepared.firstOfCustomer } : {}),
    };
  }

  return {
    sync,

    async start(subjectId, options) {
      const payable = await kind.load(subjectId);
      if (!payable) return { kind: "unknown" };
      if (!kind.awaitsPayment(payable.status)) return { kind: "not-payable", status: payable.status };

      try {
        const latest = await latestRow(subjectId);
        if (latest && !isFinalStatus(latest.status)) {
          // The provider may have decided it meanwhile (the webhook is late or lost): ask first.
          const synced = await sync(latest.paymentId);
          if (synced && !kind.awaitsPayment(synced.status))
            return { kind: "not-payable", status: synced.status };
          const again = await paymentRow(latest.paymentId);
          if (again && !isFinalStatus(again.status))
            return { kind: "started", checkoutUrl: again.checkoutUrl };
        }

        const attempt = (latest?.attempt ?? 0) + 1;
        const method = await offeredMethod(payable, options.method);
        const prepared = (await kind.prepare?.(payable)) ?? {};
        const input = paymentInput(payable, attempt, options.origin, method, prepared);
        const created = await provider.createPayment(input);
        const at = now().toISOString();
        // A double click gets the same payment back from the provider (same key): its row is
        // already there, and the second insert does nothing.
        await db
          .insertInto(kind.table)
          .values({
            payment_id: created.id,
            [kind.subjectColumn]: payable.id,
            provider: provider.name,
            attempt,
            status: created.status,
            amount_cents: input.amountCents,
            checkout_url: created.checkoutUrl,
            failure_mailed_at: null,
            created_at: at,
            updated_at: at,
          } as never)
          .onConflict((oc) => oc.doNothing())
          .execute();
        return { kind: "started", checkoutUrl: created.checkoutUrl };
      } catch (err) {
        if (err instanceof PaymentProviderUnavailable) {
          log.warn(
            { err, [kind.name]: subjectId },
            `payment provider unavailable: the ${kind.name} stays awaiting payment`,
          );
          return { kind: "unavailable" };
        }
        // The provider refused the request itself (a bad key, an amount it does not take):
        // the shopper can only try later, and a person has to look.
        log.error({ err, [kind.name]: subjectId }, "payment provider refused to start a payment");
        return { kind: "unavailable" };
      }
    },

    async latest(subjectId) {
      const row = await latestRow(subjectId);
      if (!row) return undefined;
      if (isFinalStatus(row.status)) return { paymentId: row.paymentId, status: row.status };
      try {
        await sync(row.paymentId);
      } catch (err) {
        // The page shows what was known; the webhook brings the rest.
        log.warn(
          { err, [kind.name]: subjectId, paymentId: row.paymentId },
          "payment status could not be fetched",
        );
        return { paymentId: row.paymentId, status: row.status };
      }
      const again = await paymentRow(row.paymentId);
      return { paymentId: row.paymentId, status: again?.status ?? row.status };
    },
  };
}
