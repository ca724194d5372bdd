import type { Kysely, Selectable } from "kysely";
import type { Locale } from "../i18n/locales.ts";
import { isRandomId, randomId } from "../store/random-id.ts";
import type { Schema, TestPaymentsTable } from "../store/schema.ts";
import {
  isPaymentStatus,
  type PaymentMethod,
  type PaymentProvider,
  PaymentProviderError,
  PaymentProviderUnavailable,
  type PaymentStatus,
} from "./provider.ts";

/** What the tester can choose on the test-payment page. */
export const testOutcomes = ["paid", "failed", "canceled", "expired", "open"] as const;
export type TestOutcome = (typeof testOutcomes)[number];

export function isTestOutcome(value: unknown): value is TestOutcome {
  return typeof value === "string" && (testOutcomes as readonly string[]).includes(value);
}

/** Everything the test-payment page needs to show and to send the tester back. */
export interface TestPayment {
  id: string;
  status: PaymentStatus;
  amountCents: number;
  description: string;
  locale: Locale;
  redirectUrl: string;
  webhookUrl: string;
  metadata: Record<string, string>;
  method: string | undefined;
  /** "oneoff", "first" (creates a mandate once paid) or "recurring" (charged on a mandate). */
  sequenceType: string;
  createdAt: string;
  updatedAt: string;
}

export interface TestProviderOptions {
  db: Kysely<Schema>;
  /** The shop's own translated test-payment page for a payment (the routes know its path). */
  checkoutUrl: (id: string, locale: Locale) => string;
  log: { warn(message: string): void };
  /**
   * The waits before each retry of a webhook call that failed: the first call goes at once,
   * then one retry per entry. A provider keeps trying for a while too; the shop must cope
   * with the call arriving late, or more than once.
   */
  webhookRetryDelaysMs?: readonly number[];
  /** One webhook call is abandoned after this long and counts as failed. */
  webhookTimeoutMs?: number;
}

export interface TestPaymentProvider extends PaymentProvider {
  readonly name: "test";
  /** The payment with everything the test-payment page shows; undefined for an unknown or malformed id. */
  details(id: string): Promise<TestPayment | undefined>;
  /**
   * What the tester chose: the payment takes that status, and the shop's webhook is called
   * with its id, as a provider would. Resolves once the first webhook call is done (so the
   * shop has usually heard of it before the tester is sent back); a failed call is logged and
   * retried in the background and never makes settle fail. A payment already paid, failed,
   * canceled or expired stays so and no webhook is called: no provider reopens a decided
   * payment. Undefined for an unknown or malformed id.
   */
  settle(id: string, outcome: TestOutcome): Promise<TestPayment | undefined>;
  /** Resolves when every webhook call started so far was delivered or given up (tests, shutdown). */
  idle(): Promise<void>;
  /** The refunds made of a payment, oldest first (what a provider's dashboard shows). */
  refundsOf(paymentId: string): Promise<Array<{ id: string; amountCents: number }>>;
}

/**
 * The test provider's own methods, named after the methods a real provider offers so the
 * shop's method choice looks and posts as it will with Mollie. They are the test provider's,
 * not a list of what Mollie offers: nothing is paid with any of them.
 */
const testMethods: Record<Locale, PaymentMethod[]> = {
  nl: [
    { id: "ideal", description: "iDEAL (test)" },
    { id: "creditcard", description: "Creditcard (test)" },
    { id: "bancontact", description: "Bancontact (test)" },
    { id: "paypal", description: "PayPal (test)" },
  ],
  de: [
    { id: "ideal", description: "iDEAL (Test)" },
    { id: "creditcard", description: "Kreditkarte (Test)" },
    { id: "bancontact", description: "Bancontact (Test)" },
    { id: "paypal", description: "PayPal (Test)" },
  ],
};

/** Statuses the tester may still change; the others are decided for good. */
const undecided: PaymentStatus[] = ["open", "pending", "authorized"];

const idPrefix = "tp_";
const customerPrefix = "cst_";
const mandatePrefix = "mdt_";
const refundPrefix = "re_";

function isTestPaymentId(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(idPrefix) && isRandomId(value.slice(idPrefix.length));
}

function metadataOf(text: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    return {};
  }
}

function toPayment(row: Selectable<TestPaymentsTable>): TestPayment {
  return {
    id: row.id,
    status: isPaymentStatus(row.status) ? row.status : "open",
    amountCents: Number(row.amount_cents),
    description: row.description,
    locale: row.locale as Locale,
    redirectUrl: row.redirect_url,
    webhookUrl: row.webhook_url,
    metadata: metadataOf(row.metadata),
    method: row.method ?? undefined,
    sequenceType: row.sequence_type,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The built-in provider the shop uses when no real one is configured, as a provider's test
 * mode: payments are rows in the shop's database (so every instance sees them), the tester
 * decides each one on the shop's test-payment page, and the webhook is a real HTTP call.
 * It never moves money, so it must never take real orders.
 */
export function testPaymentProvider(options: TestProviderOptions): TestPaymentProvider {
  const { db, log } = options;
  const retryDelays = options.webhookRetryDelaysMs ?? [1_000, 5_000, 30_000];
  const webhookTimeoutMs = options.webhookTimeoutMs ?? 10_000;
  const deliveries = new Set<Promise<void>>();

  /** The database is this provider's server: when it cannot answer, the provider is unavailable. */
  async function stored<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof PaymentProviderError) throw err;
      throw new PaymentProviderUnavailable(`test payments ${what}: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  /**
   * A first payment that was just paid creates its customer's mandate, as at Mollie; the
   * payment keeps the mandate's id. The unique payment id makes it once.
   */
  async function mandateFrom(paymentId: string) {
    await stored("create mandate", async () => {
      const payment = await db
        .selectFrom("test_payments")
        .select(["customer_id", "sequence_type"])
        .where("id", "=", paymentId)
        .executeTakeFirst();
      if (payment?.sequence_type !== "first" || !payment.customer_id) return;
      const mandateId = `${mandatePrefix}${randomId()}`;
      await db
        .insertInto("test_mandates")
        .values({
          id: mandateId,
          customer_id: payment.customer_id,
          status: "valid",
          payment_id: paymentId,
          created_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.column("payment_id").doNothing())
        .execute();
      const made = await db
        .selectFrom("test_mandates")
        .select("id")
        .where("payment_id", "=", paymentId)
        .executeTakeFirstOrThrow();
      await db
        .updateTable("test_payments")
        .set({ mandate_id: made.id })
        .where("id", "=", paymentId)
        .execute();
    });
  }

  const read = (id: string) =>
    stored("read", () => db.selectFrom("test_payments").selectAll().where("id", "=", id).executeTakeFirst());

  /** One webhook call as a provider makes it: a form post carrying nothing but the id. */
  async function callWebhook(payment: TestPayment, attempt: number): Promise<boolean> {
    const where = `test payments: webhook ${payment.webhookUrl} for ${payment.id} (attempt ${attempt})`;
    try {
      const response = await fetch(payment.webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ id: payment.id }).toString(),
        redirect: "manual",
        signal: AbortSignal.timeout(webhookTimeoutMs),
      });
      await response.body?.cancel();
      if (response.ok) return true;
      log.warn(`${where} answered ${response.status}`);
    } catch (err) {
      log.warn(`${where} failed: ${(err as Error).message}`);
    }
    return false;
  }

  /** The first call now; the retries later, tracked so idle() can wait for them. */
  async function notify(payment: TestPayment): Promise<void> {
    if (await callWebhook(payment, 1)) return;
    const retries = (async () => {
      for (const [i, delay] of retryDelays.entries()) {
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        if (await callWebhook(payment, i + 2)) return;
      }
      log.warn(
        `test payments: gave up calling the webhook for ${payment.id} after ${retryDelays.length + 1} attempts`,
      );
    })();
    deliveries.add(retries);
    void retries.finally(() => deliveries.delete(retries));
  }

  return {
    name: "test",
    isPaymentId: isTestPaymentId,

    async createPayment(input) {
      if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1) {
        throw new PaymentProviderError(`test payments: not an amount in cents: ${input.amountCents}`);
      }
      const at = new Date().toISOString();
      const row = await stored("create", async () => {
        // Two requests with one key (a double click, two instances) race here: the unique key
        // lets one insert win and both read that one payment.
        await db
          .insertInto("test_payments")
          .values({
            id: `${idPrefix}${randomId()}`,
            amount_cents: input.amountCents,
            description: input.description,
            locale: input.locale,
            redirect_url: input.redirectUrl,
            webhook_url: input.webhookUrl,
            metadata: JSON.stringify(input.metadata ?? {}),
            method: input.method ?? null,
            status: "open",
            idempotency_key: input.idempotencyKey,
            customer_id: input.firstOfCustomer ?? null,
            sequence_type: input.firstOfCustomer ? "first" : "oneoff",
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.column("idempotency_key").doNothing())
          .execute();
        return db
          .selectFrom("test_payments")
          .selectAll()
          .where("idempotency_key", "=", input.idempotencyKey)
          .executeTakeFirstOrThrow();
      });
      const payment = toPayment(row);
      return {
        id: payment.id,
        status: payment.status,
        checkoutUrl: options.checkoutUrl(payment.id, payment.locale),
      };
    },

    async getPayment(id) {
      if (!isTestPaymentId(id)) return undefined;
      const row = await read(id);
      if (!row) return undefined;
      const { status, amountCents, metadata } = toPayment(row);
      return { id, status, amountCents, metadata, ...(row.mandate_id ? { mandateId: row.mandate_id } : {}) };
    },

    async listMethods({ locale }) {
      return testMethods[locale].map((method) => ({ ...method }));
    },

    async details(id) {
      if (!isTestPaymentId(id)) return undefined;
      const row = await read(id);
      return row ? toPayment(row) : undefined;
    },

    async settle(id, outcome) {
      if (!isTestPaymentId(id) || !isTestOutcome(outcome)) return undefined;
      // Only an undecided payment changes, in one statement: two settles at once (two tabs,
      // two instances) cannot both decide it.
      const changed = await stored("settle", () =>
        db
          .updateTable("test_payments")
          .set({ status: outcome, updated_at: new Date().toISOString() })
          .where("id", "=", id)
          .where("status", "in", undecided)
          .executeTakeFirst(),
      );
      if (Number(changed.numUpdatedRows) > 0 && outcome === "paid") await mandateFrom(id);
      const row = await read(id);
      if (!row) return undefined;
      const payment = toPayment(row);
      if (Number(changed.numUpdatedRows) > 0) await notify(payment);
      return payment;
    },

    async createCustomer(input) {
      const row = await stored("create customer", async () => {
        await db
          .insertInto("test_customers")
          .values({
            id: `${customerPrefix}${randomId()}`,
            name: input.name,
            email: input.email,
            locale: input.locale,
            idempotency_key: input.idempotencyKey,
            created_at: new Date().toISOString(),
          })
          .onConflict((oc) => oc.column("idempotency_key").doNothing())
          .execute();
        return db
          .selectFrom("test_customers")
          .select("id")
          .where("idempotency_key", "=", input.idempotencyKey)
          .executeTakeFirstOrThrow();
      });
      return { id: row.id };
    },

    async createRecurringPayment(input) {
      if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1) {
        throw new PaymentProviderError(`test payments: not an amount in cents: ${input.amountCents}`);
      }
      const mandate = await stored("read mandate", () =>
        db
          .selectFrom("test_mandates")
          .select("status")
          .where("id", "=", input.mandateId)
          .where("customer_id", "=", input.customerId)
          .executeTakeFirst(),
      );
      // As Mollie: no valid mandate, no charge (422 there).
      if (mandate?.status !== "valid") {
        throw new PaymentProviderError(
          `test payments: customer ${input.customerId} has no valid mandate ${input.mandateId}`,
        );
      }
      const at = new Date().toISOString();
      const row = await stored("create recurring", async () => {
        await db
          .insertInto("test_payments")
          .values({
            id: `${idPrefix}${randomId()}`,
            amount_cents: input.amountCents,
            description: input.description,
            locale: input.locale,
            redirect_url: input.testReturnUrl,
            webhook_url: input.webhookUrl,
            metadata: JSON.stringify(input.metadata ?? {}),
            method: null,
            // A recurring charge waits, open, until a tester decides it on its page.
            status: "open",
            idempotency_key: input.idempotencyKey,
            customer_id: input.customerId,
            mandate_id: input.mandateId,
            sequence_type: "recurring",
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.column("idempotency_key").doNothing())
          .execute();
        return db
          .selectFrom("test_payments")
          .selectAll()
          .where("idempotency_key", "=", input.idempotencyKey)
          .executeTakeFirstOrThrow();
      });
      const payment = toPayment(row);
      return {
        id: payment.id,
        status: payment.status,
        testPageUrl: options.checkoutUrl(payment.id, payment.locale),
      };
    },

    async revokeMandate({ customerId, mandateId }) {
      await stored("revoke mandate", () =>
        db
          .updateTable("test_mandates")
          .set({ status: "revoked" })
          .where("id", "=", mandateId)
          .where("customer_id", "=", customerId)
          .execute(),
      );
    },

    async refundPayment(input) {
      const payment = await read(input.paymentId);
      if (payment?.status !== "paid") {
        throw new PaymentProviderError(
          `test payments: ${input.paymentId} is not paid and cannot be refunded`,
        );
      }
      return stored("refund", async () => {
        const refunded = await db
          .selectFrom("test_refunds")
          .select(["id", "amount_cents", "idempotency_key"])
          .where("payment_id", "=", input.paymentId)
          .execute();
        const again = refunded.find((r) => r.idempotency_key === input.idempotencyKey);
        if (again) return { id: again.id };
        const left =
          Number(payment.amount_cents) - refunded.reduce((sum, r) => sum + Number(r.amount_cents), 0);
        if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 1 || input.amountCents > left) {
          throw new PaymentProviderError(
            `test payments: cannot refund ${input.amountCents} cents of ${input.paymentId} (${left} left)`,
          );
        }
        const id = `${refundPrefix}${randomId()}`;
        await db
          .insertInto("test_refunds")
          .values({
            id,
            payment_id: input.paymentId,
            amount_cents: input.amountCents,
            description: input.description,
            idempotency_key: input.idempotencyKey,
            created_at: new Date().toISOString(),
          })
          .execute();
        return { id };
      });
    },

    async refundsOf(paymentId) {
      const rows = await stored("read refunds", () =>
        db
          .selectFrom("test_refunds")
          .select(["id", "amount_cents"])
          .where("payment_id", "=", paymentId)
          .orderBy("created_at")
          .execute(),
      );
      return rows.map((r) => ({ id: r.id, amountCents: Number(r.amount_cents) }));
    },

    async idle() {
      while (deliveries.size > 0) await Promise.all([...deliveries]);
    },
  };
}
