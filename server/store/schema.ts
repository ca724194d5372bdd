import type { Generated } from "kysely";

/** Table types as Kysely sees them. Timestamps are ISO-8601 UTC text so SQLite and PostgreSQL read the same. */
export interface CartsTable {
  id: string;
  created_at: string;
  updated_at: string;
  /** Raised by triggers on every change the cart pages show (migration 0007). */
  revision: Generated<number>;
}

export interface CartLinesTable {
  cart_id: string;
  product_id: string;
  orientation: string;
  size_id: string;
  quantity: number;
  added_at: string;
  /** A photo-book project this line orders; such a line is a line of its own. */
  project_id: string | null;
}

export interface AnalyticsEventsTable {
  id: Generated<number>;
  event: string;
  route_id: string;
  locale: string;
  /** JSON object of short scalar properties */
  properties: string;
  received_at: string;
}

/** Counters the server adds to per day (migration 0008): the funnel. */
export interface AnalyticsDailyTable {
  /** UTC day, YYYY-MM-DD */
  day: string;
  event: string;
  locale: string;
  /** "" where no product applies */
  product_id: string;
  /** bigint: PostgreSQL hands it back as text */
  count: number | string;
}

/** Browser events past their raw window, counted per day (migration 0009, server/jobs/clean-up.ts). */
export interface AnalyticsEventsDailyTable {
  /** UTC day, YYYY-MM-DD */
  day: string;
  event: string;
  route_id: string;
  locale: string;
  /** The event's productId property; "" where it has none */
  product_id: string;
  /** bigint: PostgreSQL hands it back as text */
  count: number | string;
}

/** An offer's end announced once per subscription and period (migration 0024). */
export interface SubscriptionPriceNoticesTable {
  subscription_id: string;
  period_start: string;
  amount_cents: number;
  created_at: string;
}

/** A running subscription's change of plan (migration 0025, ADR 0108). */
export interface SubscriptionPlanChangesTable {
  id: Generated<number>;
  subscription_id: string;
  /** upgrade or downgrade */
  kind: string;
  from_plan_id: string;
  from_monthly_cents: number;
  from_offer_cents: number | null;
  from_offer_months: number | null;
  to_plan_id: string;
  to_monthly_cents: number;
  to_offer_cents: number | null;
  to_offer_months: number | null;
  starts_on: string;
  period_end: string;
  amount_cents: number;
  /** scheduled, applied, dropped (downgrades); charging, paid, failed (upgrades) */
  status: string;
  payment_id: string | null;
  /** The provider's status of the upgrade's charge, as last heard */
  payment_status: string | null;
  test_page_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  locale: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_by: string | null;
  claimed_until: string | null;
  sent_at: string | null;
  last_error: string | null;
  /** The account whose life the mail is about; erased with it. */
  account_id: string | null;
  /** The order the mail is about; erased when its account is deleted. */
  order_id: number | null;
  /** When subject, addresses and text were cleared; the sender never sends an erased mail. */
  erased_at: string | null;
}

export interface CartAddressesTable {
  cart_id: string;
  name: string;
  street: string;
  postcode: string;
  city: string;
  country: string;
  email: string;
  phone: string | null;
  updated_at: string;
}

export interface OrdersTable {
  id: Generated<number>;
  idempotency_key: string;
  cart_id: string;
  locale: string;
  /** An OrderStatus (server/domain/order-lifecycle.ts); it changes only through order-lifecycle-repository.ts */
  status: string;
  name: string;
  street: string;
  postcode: string;
  city: string;
  country: string;
  email: string;
  phone: string | null;
  subtotal_cents: number;
  shipping_cents: number;
  vat_rate: number;
  vat_cents: number;
  total_cents: number;
  production_min_days: number;
  production_max_days: number;
  created_at: string;
  /** The account it belongs to (migration 0014); null for an order without one */
  account_id: string | null;
  /** What the subscription took off it (migration 0023): free 10 × 15 prints and the photo-book discount */
  free_prints: Generated<number>;
  free_prints_cents: Generated<number>;
  photo_book_discount: Generated<number>;
  photo_book_discount_cents: Generated<number>;
  /** The subscription whose prints were used, and the first day of that paid period */
  subscription_id: string | null;
  subscription_period: string | null;
}

export interface OrderLinesTable {
  order_id: number;
  position: number;
  product_id: string;
  orientation: string;
  size_id: string;
  /** The product's name in the order's language when it was placed */
  product_name: string;
  quantity: number;
  unit_cents: number;
  total_cents: number;
  /** The photo-book project the line orders (migration 0006) */
  project_id: string | null;
}

/** Every change of an order's status, with its time (migration 0010). */
export interface OrderTransitionsTable {
  id: Generated<number>;
  order_id: number;
  from_status: string;
  to_status: string;
  /** The OrderEvent's type that caused the change */
  event: string;
  /** The provider's payment, for a payment's outcome */
  payment_id: string | null;
  at: string;
}

/** The built-in test provider's payments (migration 0011); never real money. */
export interface TestPaymentsTable {
  /** tp_ and 22 random URL-safe characters */
  id: string;
  amount_cents: number;
  description: string;
  locale: string;
  redirect_url: string;
  webhook_url: string;
  /** JSON object of strings */
  metadata: string;
  method: string | null;
  /** A PaymentStatus (server/payments/provider.ts) */
  status: string;
  idempotency_key: string;
  created_at: string;
  updated_at: string;
  /** The customer a first or recurring payment belongs to (migration 0020) */
  customer_id: string | null;
  /** The mandate a recurring payment was charged on, or a paid first payment created */
  mandate_id: string | null;
  /** "oneoff", "first" or "recurring", as Mollie names them */
  sequence_type: Generated<string>;
}

/** The test provider's customers (migration 0020). */
export interface TestCustomersTable {
  /** cst_ and random characters */
  id: string;
  name: string;
  email: string;
  locale: string;
  idempotency_key: string;
  created_at: string;
}

/** The test provider's mandates, each made by a paid first payment (migration 0020). */
export interface TestMandatesTable {
  /** mdt_ and random characters */
  id: string;
  customer_id: string;
  /** "valid" or "revoked" */
  status: string;
  payment_id: string;
  created_at: string;
}

/** The test provider's refunds (migration 0020). */
export interface TestRefundsTable {
  /** re_ and random characters */
  id: string;
  payment_id: string;
  amount_cents: number;
  description: string;
  idempotency_key: string;
  created_at: string;
}

/** Each attempt to charge a subscription's period after the first (migration 0020). */
export interface SubscriptionChargesTable {
  id: Generated<number>;
  subscription_id: string;
  /** The period it pays for (YYYY-MM-DD, the shop's calendar) */
  period_start: string;
  period_end: string;
  /** 1 on the period's first day; 2 and 3 the retries after 3 and 7 days */
  attempt: number;
  due_on: string;
  amount_cents: number;
  /** "mandate" (without the shopper) or "by_hand" (the shopper paid from the mail's link) */
  method: string;
  /** null until the provider created the payment */
  payment_id: string | null;
  provider: string;
  /** "claimed" until the provider answered, then a PaymentStatus */
  status: string;
  /** The page where the shopper pays by hand, or the tester decides a test charge */
  page_url: string | null;
  failure_mailed_at: string | null;
  /** sha256 of the token in its failed or suspended mail's link, which pays its period by hand */
  pay_link_hash: string | null;
  created_at: string;
  updated_at: string;
}

/** A payment the subscriber started from a failed charge's link (paying the period by hand) */
export interface ByHandPaymentsTable {
  id: Generated<number>;
  subscription_id: string;
  charge_id: number;
  period_start: string;
  period_end: string;
  /** 1, 2, ... per period: part of the provider's idempotency key */
  attempt: number;
  amount_cents: number;
  payment_id: string;
  provider: string;
  /** A PaymentStatus */
  status: string;
  checkout_url: string;
  created_at: string;
  updated_at: string;
}

/** Each payment the shop started for an order (migration 0012). */
export interface OrderPaymentsTable {
  /** The provider's payment id */
  payment_id: string;
  order_id: number;
  /** "test" or "mollie": the provider that holds the payment */
  provider: string;
  /** 1 for the order's first payment, 2 for the next, ... */
  attempt: number;
  /** A PaymentStatus (server/payments/provider.ts), as last heard from the provider */
  status: string;
  amount_cents: number;
  /** The provider's payment page, to send the shopper back to while the payment is open */
  checkout_url: string;
  /** When the "payment failed" mail for this payment was queued; null until then */
  failure_mailed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  locale: string;
  name: string;
  email: string;
  order_number: string | null;
  /** The subject's key (order, delivery, …), not its label: labels may be reworded. */
  subject: string;
  question: string;
  received_at: string;
}

export interface PhotoProjectsTable {
  id: string;
  owner_id: string;
  product_id: string;
  orientation: string;
  size_id: string;
  created_at: string;
  updated_at: string;
}

export interface UploadsTable {
  id: string;
  owner_id: string;
  project_id: string | null;
  original_name: string;
  format: string;
  width: number;
  height: number;
  bytes: number;
  created_at: string;
}

export interface SubscriptionsTable {
  id: string;
  /** The browser (shopper cookie) that confirmed it: its page is shown there */
  owner_id: string | null;
  /** Its subscriber (migration 0014); null once the account was deleted (kept for the books) */
  account_id: string | null;
  plan_id: string;
  monthly_cents: number;
  offer_cents: number | null;
  offer_months: number | null;
  locale: string;
  /** Where the subscriber lives, "NL" or "DE": the VAT of the fee follows it (migration 0026) */
  country: string;
  /** A SubscriptionStatus (server/domain/subscription-lifecycle.ts) */
  status: Generated<string>;
  /** The last day of the paid period (YYYY-MM-DD, the shop's calendar); null until paid */
  paid_until: string | null;
  /** When its address was confirmed: the unpaid-expiry window counts from here */
  created_at: string;
  /** The provider's customer and the mandate its first payment created (migration 0020) */
  customer_id: string | null;
  mandate_id: string | null;
  /** The first day of the paid period */
  paid_from: string | null;
  /** The first day of its first period: the 14 days to withdraw count from here */
  started_on: string | null;
  /** Notice given: the last day it runs */
  ends_on: string | null;
}

/**
 * A sign-up waiting for its address to be confirmed through the mailed link (migrations
 * 0013, 0014): for an account, with a plan for a subscription too, or made from an order.
 */
export interface SignupsTable {
  /** sha256 of the link's token, hex */
  token_hash: string;
  email: string;
  email_key: string;
  name: string;
  /** The plan, for a subscription; null for an account alone */
  plan_id: string | null;
  monthly_cents: number | null;
  offer_cents: number | null;
  offer_months: number | null;
  password_hash: string;
  locale: string;
  /** For a subscription: where the subscriber lives, "NL" or "DE" (migration 0026); null for an account alone */
  country: string | null;
  owner_id: string | null;
  created_at: string;
  used_at: string | null;
  /** The subscription the link made or found, once used */
  subscription_id: string | null;
  /** The order "Bewaar je gegevens" came from: its address is saved, it joins the account */
  order_id: number | null;
  /** The account the link made or found, once used */
  account_id: string | null;
}

export interface AccountsTable {
  id: string;
  email: string;
  email_key: string;
  name: string;
  password_hash: string;
  locale: string;
  email_confirmed_at: string | null;
  /** The shopper id its photos and projects carry */
  owner_id: string;
  cart_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A signed-in browser (migration 0014). */
export interface SessionsTable {
  /** sha256 of the session cookie's token, hex */
  token_hash: string;
  account_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** A single-use link for an account: a password reset, a new address (migration 0014). */
export interface AccountTokensTable {
  token_hash: string;
  account_id: string;
  purpose: string;
  new_email: string | null;
  created_at: string;
  used_at: string | null;
  /** The guest order a "claim-order" link adds to the account (migration 0017). */
  order_id: number | null;
}

/** An account's delivery address (migration 0014). */
export interface AddressesTable {
  id: string;
  account_id: string;
  name: string;
  street: string;
  postcode: string;
  city: string;
  country: string;
  email: string;
  phone: string | null;
  created_at: string;
  updated_at: string;
}

export interface SubscriptionTransitionsTable {
  id: Generated<number>;
  subscription_id: string;
  from_status: string;
  to_status: string;
  event: string;
  payment_id: string | null;
  at: string;
}

/** Each payment the shop started for a subscription's first period (migration 0013). */
export interface SubscriptionPaymentsTable {
  payment_id: string;
  subscription_id: string;
  provider: string;
  attempt: number;
  status: string;
  amount_cents: number;
  checkout_url: string;
  failure_mailed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Raised by triggers whenever a shopper's photos, photo books or ordered books change (migration 0015) */
export interface ShopperRevisionsTable {
  owner_id: string;
  revision: number;
}

/** Raised by triggers whenever what an account's pages show changes, or one of its sessions ends (migration 0016) */
export interface AccountRevisionsTable {
  account_id: string;
  revision: number;
}

/**
 * A cancellation or withdrawal sent with the public forms, whether or not the address has a
 * subscription (migration 0021).
 */
export interface ContractRequestsTable {
  id: string;
  /** "cancel" or "withdraw" */
  kind: string;
  locale: string;
  name: string;
  email: string;
  email_key: string;
  /** The subscription number typed; null: the subscription of this address */
  contract_ref: string | null;
  /** "ordinary" or "extraordinary" (a cancellation), null for a withdrawal */
  notice: string | null;
  reason: string | null;
  asked_end_on: string | null;
  /** The moment of the button: the date and time of receipt */
  received_at: string;
  subscription_id: string | null;
  account_id: string | null;
  /** sha256 of the mailed link's token; null when no link was mailed */
  token_hash: string | null;
  confirmed_at: string | null;
  outcome: string | null;
}

export interface Schema {
  carts: CartsTable;
  cart_lines: CartLinesTable;
  analytics_events: AnalyticsEventsTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_events_daily: AnalyticsEventsDailyTable;
  outbox: OutboxTable;
  cart_addresses: CartAddressesTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  order_transitions: OrderTransitionsTable;
  test_payments: TestPaymentsTable;
  test_customers: TestCustomersTable;
  test_mandates: TestMandatesTable;
  test_refunds: TestRefundsTable;
  subscription_charges: SubscriptionChargesTable;
  by_hand_payments: ByHandPaymentsTable;
  subscription_price_notices: SubscriptionPriceNoticesTable;
  subscription_plan_changes: SubscriptionPlanChangesTable;
  order_payments: OrderPaymentsTable;
  contact_messages: ContactMessagesTable;
  photo_projects: PhotoProjectsTable;
  uploads: UploadsTable;
  subscriptions: SubscriptionsTable;
  signups: SignupsTable;
  accounts: AccountsTable;
  shopper_revisions: ShopperRevisionsTable;
  account_revisions: AccountRevisionsTable;
  sessions: SessionsTable;
  account_tokens: AccountTokensTable;
  addresses: AddressesTable;
  subscription_transitions: SubscriptionTransitionsTable;
  subscription_payments: SubscriptionPaymentsTable;
  contract_requests: ContractRequestsTable;
}
