import type { PasswordBackOff } from "../accounts/password-back-off.ts";
import type { Config } from "../config.ts";
import type { Catalogue } from "../domain/catalogue.ts";
import type { Company } from "../domain/company.ts";
import type { DeliveryTimes } from "../domain/delivery-overview.ts";
import type { Faq } from "../domain/faq.ts";
import type { LegalPages } from "../domain/legal-pages.ts";
import type { WithdrawalRights } from "../domain/withdrawal-rights.ts";
import type { I18n } from "../i18n/index.ts";
import type { ByHandPayments } from "../payments/by-hand-payments.ts";
import type { ChosenProvider } from "../payments/index.ts";
import type { OrderPayments } from "../payments/order-payments.ts";
import type { SubscriptionCharges } from "../payments/subscription-charges.ts";
import type { SubscriptionPayments } from "../payments/subscription-payments.ts";
import type { SubscriptionPlanChanges } from "../payments/subscription-plan-changes.ts";
import type { AccountRepository } from "../store/account-repository.ts";
import type { AddressBookRepository } from "../store/address-book-repository.ts";
import type { CartRepository } from "../store/cart-repository.ts";
import type { ContactRepository } from "../store/contact-repository.ts";
import type { Database } from "../store/database.ts";
import type { OrderRepository } from "../store/order-repository.ts";
import type { PhotoProjectRepository } from "../store/photo-project-repository.ts";
import type { SessionRepository } from "../store/session-repository.ts";
import type { SignupRepository } from "../store/signup-repository.ts";
import type { SubscriptionRepository } from "../store/subscription-repository.ts";
import type { UploadRepository } from "../store/upload-repository.ts";
import type { PhotoStorage } from "../uploads/photo-storage.ts";
import type { AnalyticsCounters } from "./analytics/analytics-counters.ts";
import type { ClientLimits } from "./limits/client-limits.ts";
import type { ProductLinks } from "./rendering/product-links.ts";

/** What route modules get to work with; built once at start-up. */
export interface Services {
  config: Config;
  catalogue: Catalogue;
  /** The company behind the shop (content/company.json): the seller in the footer, the legal
   * pages and the mails, the manufacturer in the product-safety details, the security contact. */
  company: Company;
  database: Database;
  i18n: I18n;
  carts: CartRepository;
  /** Shoppers' photos, their photo-book projects and photo subscriptions. */
  uploads: UploadRepository;
  projects: PhotoProjectRepository;
  subscriptions: SubscriptionRepository;
  /** Customer accounts, their sessions (signed-in browsers) and address books. */
  accounts: AccountRepository;
  sessions: SessionRepository;
  addressBook: AddressBookRepository;
  /** Sign-ups waiting for the link that confirms their address: accounts and subscriptions. */
  signups: SignupRepository;
  /** Password attempts (sign-in, account pages) per account and client, in the rate limits' store. */
  passwordBackOff: PasswordBackOff;
  /** Waits before a slowed answer (the password back-off). */
  sleep: (ms: number) => Promise<void>;
  /** Uploaded photos and thumbnails: data/uploads/ by default. */
  photoStorage: PhotoStorage;
  orders: OrderRepository;
  asset: (name: string) => string;
  links: ProductLinks;
  /** The shop's clock; tests set it to a moment of their choosing. */
  now: () => Date;
  deliveryTimes: DeliveryTimes;
  faq: Faq;
  /** The legal pages from content/legal/, rendered at start-up (server/domain/legal-pages.ts). */
  legal: LegalPages;
  /** Which products have a 14-day right of withdrawal (content/legal/withdrawal.json). */
  withdrawalRights: WithdrawalRights;
  contacts: ContactRepository;
  /** Tells the mail sender that mail was queued, so it goes out now rather than at the next poll. */
  mailQueued: () => void;
  /** Where mails are written as .eml files (data/mail/ without SMTP_URL), for erasing them; none with SMTP. */
  mailFolder: string | undefined;
  /** The funnel's counters (analytics-counters.ts): a step counted in memory, written every few seconds. */
  counters: AnalyticsCounters;
  /** How much one client address may store per window: carts, photos, projects, addresses, events. */
  limits: ClientLimits;
  /** The payment provider (PAYMENT_PROVIDER): Mollie, or the built-in test provider. */
  payments: ChosenProvider;
  /** Orders' payments: starting one, and what the provider says about it (server/payments/order-payments.ts). */
  orderPayments: OrderPayments;
  /** The payment of a subscription's first period (server/payments/subscription-payments.ts). */
  subscriptionPayments: SubscriptionPayments;
  /** The charges of a subscription's next periods, on its mandate (server/payments/subscription-charges.ts). */
  subscriptionCharges: SubscriptionCharges;
  /** A failed period paid by hand from its mail's link (server/payments/by-hand-payments.ts). */
  byHandPayments: ByHandPayments;
  /** Upgrading and downgrading a running subscription (ADR 0108). */
  planChanges: SubscriptionPlanChanges;
}
