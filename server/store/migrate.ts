import { type Migration, Migrator, sql } from "kysely";
import type { Database } from "./database.ts";
import { carts } from "./migrations/0001-carts.ts";
import { analyticsEvents } from "./migrations/0002-analytics-events.ts";
import { outbox } from "./migrations/0003-outbox.ts";
import { checkout } from "./migrations/0004-checkout.ts";
import { contactMessages } from "./migrations/0005-contact-messages.ts";
import { photoProjectsAndSubscriptions } from "./migrations/0006-photo-projects-and-subscriptions.ts";
import { cartRevisions } from "./migrations/0007-cart-revisions.ts";
import { analyticsDaily } from "./migrations/0008-analytics-daily.ts";
import { analyticsEventsDaily } from "./migrations/0009-analytics-events-daily.ts";
import { orderTransitions } from "./migrations/0010-order-transitions.ts";
import { testPayments } from "./migrations/0011-test-payments.ts";
import { orderPayments } from "./migrations/0012-order-payments.ts";
import { subscriptionPayments } from "./migrations/0013-subscription-payments.ts";
import { accounts } from "./migrations/0014-accounts.ts";
import { shopperRevisions } from "./migrations/0015-shopper-revisions.ts";
import { accountRevisions } from "./migrations/0016-account-revisions.ts";
import { orderClaims } from "./migrations/0017-order-claims.ts";
import { outboxOwnersAndErasure } from "./migrations/0018-outbox-owners-and-erasure.ts";
import { guestOrdersAndSignupOwners } from "./migrations/0019-guest-orders-and-sign-up-owners.ts";
import { recurringSubscriptions } from "./migrations/0020-recurring-subscriptions.ts";
import { contractRequests } from "./migrations/0021-contract-requests.ts";
import { subscriptionPaymentsByHand } from "./migrations/0022-subscription-payments-by-hand.ts";
import { orderSubscriberBenefits } from "./migrations/0023-order-subscriber-benefits.ts";
import { subscriptionPriceNotices } from "./migrations/0024-subscription-price-notices.ts";
import { subscriptionPlanChanges } from "./migrations/0025-subscription-plan-changes.ts";
import { subscriptionCountry } from "./migrations/0026-subscription-country.ts";

/** Versioned migrations in the order they apply; a name, once released, never changes. */
export const migrations: Record<string, Migration> = {
  "0001-carts": carts,
  "0002-analytics-events": analyticsEvents,
  "0003-outbox": outbox,
  "0004-checkout": checkout,
  "0005-contact-messages": contactMessages,
  "0006-photo-projects-and-subscriptions": photoProjectsAndSubscriptions,
  "0007-cart-revisions": cartRevisions,
  "0008-analytics-daily": analyticsDaily,
  "0009-analytics-events-daily": analyticsEventsDaily,
  "0010-order-transitions": orderTransitions,
  "0011-test-payments": testPayments,
  "0012-order-payments": orderPayments,
  "0013-subscription-payments": subscriptionPayments,
  "0014-accounts": accounts,
  "0015-shopper-revisions": shopperRevisions,
  "0016-account-revisions": accountRevisions,
  "0017-order-claims": orderClaims,
  "0018-outbox-owners-and-erasure": outboxOwnersAndErasure,
  "0019-guest-orders-and-sign-up-owners": guestOrdersAndSignupOwners,
  "0020-recurring-subscriptions": recurringSubscriptions,
  "0021-contract-requests": contractRequests,
  "0022-subscription-payments-by-hand": subscriptionPaymentsByHand,
  "0023-order-subscriber-benefits": orderSubscriberBenefits,
  "0024-subscription-price-notices": subscriptionPriceNotices,
  "0025-subscription-plan-changes": subscriptionPlanChanges,
  "0026-subscription-country": subscriptionCountry,
};

/**
 * The migrator for the shop's migrations. Kysely looks for its own tables in every schema
 * unless told which: a second shop (or test) in another schema of the same database would
 * make it skip creating them here, so on PostgreSQL they go in the current schema.
 */
export async function shopMigrator(database: Database): Promise<Migrator> {
  const schema =
    database.dialect === "postgres"
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]
          ?.schema
      : undefined;
  return new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = await shopMigrator(database);
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName;
    throw new Error(`migration ${failed ?? "(unknown)"} failed: ${(error as Error).message ?? error}`);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
