import type { Locale } from "../i18n/locales.ts";

/** A payment's life as providers report it (Mollie's names; the test provider uses the same). */
export const paymentStatuses = [
  "open",
  "pending",
  "authorized",
  "paid",
  "failed",
  "canceled",
  "expired",
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/** Statuses a payment never leaves: the shop may act on them once and for all. */
const finalStatuses: ReadonlySet<PaymentStatus> = new Set(["paid", "failed", "canceled", "expired"]);

/**
 * Whether the payment is decided. open, pending and authorized may still become anything;
 * authorized is not final because the money is only reserved, not taken.
 */
export function isFinalStatus(status: PaymentStatus): boolean {
  return finalStatuses.has(status);
}

export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === "string" && (paymentStatuses as readonly string[]).includes(value);
}

export interface CreatePaymentInput {
  amountCents: number;
  /** Shown to the shopper on the provider's page and on their bank statement. */
  description: string;
  /** The language of the provider's payment page and method names. */
  locale: Locale;
  /** Where the provider sends the shopper back, whatever the outcome. Never proof of payment. */
  redirectUrl: string;
  /** Where the provider posts `id=<payment id>` whenever the status changes. */
  webhookUrl: string;
  /**
   * The same key gives the same payment back instead of a second one: a double click or a
   * retried request starts at most one payment.
   */
  idempotencyKey: string;
  /** Short strings kept with the payment (the order number, ...) and returned by getPayment. */
  metadata?: Record<string, string>;
  /** A method id from listMethods: the provider's page skips its own choice of method. */
  method?: string;
  /**
   * With `sequenceType: "first"`: the customer (createCustomer) whose mandate this payment
   * creates once paid, so that later periods can be charged without the shopper
   * (createRecurringPayment). Without it the payment is a one-off.
   */
  firstOfCustomer?: string;
}

export interface CreateCustomerInput {
  name: string;
  email: string;
  locale: Locale;
  /** The same key gives the same customer back: a retried sign-up makes one customer. */
  idempotencyKey: string;
}

/** A payment taken on a customer's mandate: no shopper, no payment page at the provider. */
export interface RecurringPaymentInput {
  amountCents: number;
  description: string;
  locale: Locale;
  customerId: string;
  mandateId: string;
  webhookUrl: string;
  /**
   * Where a tester is sent after deciding the charge on the test provider's page; a real
   * provider has no page for a recurring charge and is never sent it.
   */
  testReturnUrl: string;
  idempotencyKey: string;
  metadata?: Record<string, string>;
}

export interface CreatedRecurringPayment {
  id: string;
  status: PaymentStatus;
  /** The test provider's page where the tester decides the charge; undefined at a real provider. */
  testPageUrl: string | undefined;
}

export interface RefundInput {
  paymentId: string;
  amountCents: number;
  description: string;
  /** The same key gives the same refund back: a retried withdrawal refunds once. */
  idempotencyKey: string;
}

export interface CreatedPayment {
  id: string;
  status: PaymentStatus;
  /** The provider's payment page, where the shopper is sent (303) to pay. */
  checkoutUrl: string;
}

export interface ProviderPayment {
  id: string;
  status: PaymentStatus;
  amountCents: number;
  metadata: Record<string, string>;
  /** For a paid first payment: the mandate it created, which later periods are charged on. */
  mandateId?: string;
}

export interface PaymentMethod {
  /** The provider's id for the method (ideal, creditcard, bancontact, ...), for createPayment's method. */
  id: string;
  /** The method's name in the requested locale. */
  description: string;
  imageUrl?: string;
}

/**
 * What the shop needs from a payment provider. Every method may throw:
 * - PaymentProviderUnavailable when the provider cannot be reached, does not answer in time,
 *   answers with a server error or with something unreadable. Nothing was decided: the
 *   caller shows the localized "try again" message and keeps the order awaiting payment.
 * - PaymentProviderError when the provider refused the request itself (a bad API key, an
 *   amount it does not accept): retrying the same request will not help; log it.
 * Nothing else is thrown for the provider's sake.
 */
export interface PaymentProvider {
  /** "test" or "mollie": for logs and for the pages that must say a payment is a test. */
  readonly name: "test" | "mollie";
  /**
   * Whether text has the shape of this provider's payment ids. Anything else (a webhook's
   * garbage, a tampered form) is refused before the provider is asked; getPayment answers
   * undefined for it without a request.
   */
  isPaymentId(value: unknown): value is string;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  /** The payment as the provider knows it now; undefined for an unknown or malformed id. */
  getPayment(id: string): Promise<ProviderPayment | undefined>;
  /** The methods the provider offers for this amount, named in this locale, in its order. */
  listMethods(input: { amountCents: number; locale: Locale }): Promise<PaymentMethod[]>;
  /** A customer at the provider, whose first payment creates a mandate. */
  createCustomer(input: CreateCustomerInput): Promise<{ id: string }>;
  /**
   * Charges a customer's mandate without the shopper. Throws PaymentProviderError when the
   * mandate is not valid (revoked, or never created).
   */
  createRecurringPayment(input: RecurringPaymentInput): Promise<CreatedRecurringPayment>;
  /** Ends a mandate: nothing more can be charged on it. One already revoked is no error. */
  revokeMandate(input: { customerId: string; mandateId: string }): Promise<void>;
  /** Pays part or all of a paid payment back. */
  refundPayment(input: RefundInput): Promise<{ id: string }>;
}

/** The provider refused a request: a retry with the same input gets the same answer. */
export class PaymentProviderError extends Error {
  override name = "PaymentProviderError";
}

/**
 * The provider could not be reached or did not give a usable answer. Subclass of
 * PaymentProviderError, so a caller that treats every provider failure alike catches one class.
 */
export class PaymentProviderUnavailable extends PaymentProviderError {
  override name = "PaymentProviderUnavailable";
}

/**
 * Whole cents as a decimal string with two places ("12.34", "0.05"), the way providers take
 * amounts; integer arithmetic only, so no float rounding can creep in.
 */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount in cents: ${cents}`);
  const text = String(cents).padStart(3, "0");
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** "12.34" (or "12.3", "12") back to 1234 cents; undefined for anything that is not such an amount. */
export function decimalToCents(value: string): number | undefined {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : undefined;
}
