import {
  createMollieClient,
  MollieApiError,
  type Locale as MollieLocale,
  type PaymentMethod as MollieMethodId,
  SequenceType,
} from "@mollie/api-client";
import type { Locale } from "../i18n/locales.ts";
import {
  centsToDecimal,
  decimalToCents,
  isPaymentStatus,
  type PaymentProvider,
  PaymentProviderError,
  PaymentProviderUnavailable,
  type PaymentStatus,
} from "./provider.ts";

export interface MollieOptions {
  /** test_… or live_…: the key decides the mode, Mollie has no separate switch for it. */
  apiKey: string;
  /** Mollie's API root; tests point it at a local fake. The client speaks HTTPS only. */
  apiEndpoint?: string;
  /**
   * How long one call may take before the shop stops waiting and reports the provider
   * unavailable. The client has no timeout of its own, and a shopper must not wait on a
   * hung connection; its own retries of server errors (2 s apart) fit inside the default.
   */
  timeoutMs?: number;
}

/** Mollie's locales for ours: the payment page and the methods' names follow the shop's language. */
const mollieLocales: Record<Locale, MollieLocale> = {
  nl: "nl_NL" as MollieLocale,
  de: "de_DE" as MollieLocale,
};

/** Mollie's payment ids: tr_ and letters and digits. Anything else never goes out in a request. */
const paymentIdPattern = /^tr_[A-Za-z0-9]{1,64}$/;

function euros(cents: number) {
  return { currency: "EUR", value: centsToDecimal(cents) };
}

/** Mollie's statuses are ours by name; one it adds later counts as open: nothing is decided on it. */
function statusOf(status: string): PaymentStatus {
  return isPaymentStatus(status) ? status : "open";
}

function stringEntries(metadata: unknown): Record<string, string> {
  if (typeof metadata !== "object" || metadata === null) return {};
  return Object.fromEntries(
    Object.entries(metadata).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
}

/**
 * The client's errors, sorted into what the caller can act on: no answer, a server error
 * (after the client's own retries), a rate limit or an unreadable body mean "try again
 * later"; any other refusal is the request's own fault.
 */
function providerFailure(err: unknown, what: string): PaymentProviderError {
  if (err instanceof PaymentProviderError) return err;
  if (err instanceof MollieApiError) {
    const status = err.statusCode;
    if (status === undefined || status >= 500 || status === 429) {
      return new PaymentProviderUnavailable(`mollie ${what}: ${err.message}`, { cause: err });
    }
    return new PaymentProviderError(`mollie ${what}: ${status} ${err.message}`, { cause: err });
  }
  return new PaymentProviderUnavailable(`mollie ${what}: unreadable answer (${String(err)})`, { cause: err });
}

export interface MollieProvider extends PaymentProvider {
  readonly name: "mollie";
}

/** Mollie through its official client (@mollie/api-client). */
export function mollieProvider(options: MollieOptions): MollieProvider {
  const client = createMollieClient({
    apiKey: options.apiKey,
    ...(options.apiEndpoint ? { apiEndpoint: options.apiEndpoint } : {}),
  });
  const timeoutMs = options.timeoutMs ?? 15_000;

  /** Runs one call to Mollie within the time limit, its failures sorted (providerFailure). */
  async function call<T>(what: string, work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new PaymentProviderUnavailable(`mollie ${what}: no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (err) {
      throw providerFailure(err, what);
    } finally {
      clearTimeout(timer);
    }
  }

  const isPaymentId = (value: unknown): value is string =>
    typeof value === "string" && paymentIdPattern.test(value);

  return {
    name: "mollie",
    isPaymentId,

    async createPayment(input) {
      const payment = await call("create payment", () =>
        client.payments.create({
          amount: euros(input.amountCents),
          description: input.description,
          redirectUrl: input.redirectUrl,
          webhookUrl: input.webhookUrl,
          locale: mollieLocales[input.locale],
          ...(input.metadata ? { metadata: input.metadata } : {}),
          ...(input.method ? { method: input.method as MollieMethodId } : {}),
          ...(input.firstOfCustomer
            ? { customerId: input.firstOfCustomer, sequenceType: SequenceType.first }
            : {}),
          // The client sends it as the Idempotency-Key header: Mollie answers a repeat with the first payment.
          idempotencyKey: input.idempotencyKey,
        }),
      );
      const checkoutUrl = payment.getCheckoutUrl();
      if (!checkoutUrl)
        throw new PaymentProviderError(`mollie create payment: ${payment.id} has no checkout URL`);
      return { id: payment.id, status: statusOf(payment.status), checkoutUrl };
    },

    async getPayment(id) {
      if (!isPaymentId(id)) return undefined;
      try {
        const payment = await call("get payment", () => client.payments.get(id));
        const amountCents =
          payment.amount.currency === "EUR" ? decimalToCents(payment.amount.value) : undefined;
        if (amountCents === undefined) {
          throw new PaymentProviderError(
            `mollie get payment: ${id} has an amount the shop never asks for (${payment.amount.currency} ${payment.amount.value})`,
          );
        }
        return {
          id: payment.id,
          status: statusOf(payment.status),
          amountCents,
          metadata: stringEntries(payment.metadata),
          ...(payment.mandateId ? { mandateId: payment.mandateId } : {}),
        };
      } catch (err) {
        // Unknown to Mollie (or to this key's profile and mode): for the shop, no such payment.
        if (
          err instanceof PaymentProviderError &&
          (err.cause as MollieApiError | undefined)?.statusCode === 404
        ) {
          return undefined;
        }
        throw err;
      }
    },

    async listMethods(input) {
      const methods = await call("list methods", () =>
        client.methods.list({ amount: euros(input.amountCents), locale: mollieLocales[input.locale] }),
      );
      return methods.map((method) => ({
        id: method.id,
        description: method.description,
        ...(method.image?.svg ? { imageUrl: method.image.svg } : {}),
      }));
    },

    async createCustomer(input) {
      const customer = await call("create customer", () =>
        client.customers.create({
          name: input.name,
          email: input.email,
          locale: mollieLocales[input.locale],
          idempotencyKey: input.idempotencyKey,
        }),
      );
      return { id: customer.id };
    },

    async createRecurringPayment(input) {
      const payment = await call("create recurring payment", () =>
        client.payments.create({
          amount: euros(input.amountCents),
          description: input.description,
          webhookUrl: input.webhookUrl,
          locale: mollieLocales[input.locale],
          sequenceType: SequenceType.recurring,
          customerId: input.customerId,
          mandateId: input.mandateId,
          ...(input.metadata ? { metadata: input.metadata } : {}),
          idempotencyKey: input.idempotencyKey,
        }),
      );
      return { id: payment.id, status: statusOf(payment.status), testPageUrl: undefined };
    },

    async revokeMandate({ customerId, mandateId }) {
      try {
        await call("revoke mandate", () => client.customerMandates.revoke(mandateId, { customerId }));
      } catch (err) {
        // Gone already (revoked before, or the customer deleted): nothing is left to end.
        const status = (err as { cause?: MollieApiError }).cause?.statusCode;
        if (err instanceof PaymentProviderError && (status === 404 || status === 410)) return;
        throw err;
      }
    },

    async refundPayment(input) {
      const refund = await call("refund payment", () =>
        client.paymentRefunds.create({
          paymentId: input.paymentId,
          amount: euros(input.amountCents),
          description: input.description,
          idempotencyKey: input.idempotencyKey,
        }),
      );
      return { id: refund.id };
    },
  };
}
