// `npm run order -- produce|ship|show <bestelnummer>`: moves an order into production or ships
// it, through the order's lifecycle, from the shop's own database (DATABASE_URL). Shipping
// queues the shipping mail in the outbox in the same transaction, so the running shop's mail
// sender delivers it, once. The staff using this speak Dutch, so it answers in Dutch.
import { resolve } from "node:path";
import type { Kysely } from "kysely";
import { projectRoot, readConfig } from "../server/config.ts";
import type { OrderStatus } from "../server/domain/order-lifecycle.ts";
import { orderIdOf, orderNumber } from "../server/domain/order-number.ts";
import { createI18n, type I18n, loadMessages } from "../server/i18n/index.ts";
import { isLocale, type Locale } from "../server/i18n/locales.ts";
import { enqueueMail } from "../server/mail/outbox.ts";
import { shippingMail } from "../server/mail/shipping-mail.ts";
import { openDatabase } from "../server/store/database.ts";
import { migrateToLatest } from "../server/store/migrate.ts";
import {
  type AfterChange,
  type OrderLifecycleRepository,
  orderLifecycleRepository,
} from "../server/store/order-lifecycle-repository.ts";
import { orderRepository } from "../server/store/order-repository.ts";
import type { Schema } from "../server/store/schema.ts";

const usage =
  "Gebruik: npm run order -- produce|ship|show <bestelnummer>, bijvoorbeeld: npm run order -- ship 100001";

const statusWords: Record<OrderStatus, string> = {
  awaiting_payment: "wacht op betaling",
  paid: "betaald",
  in_production: "in productie",
  shipped: "verzonden",
  cancelled: "geannuleerd",
  expired: "verlopen",
};

const languages: Record<Locale, string> = { nl: "Nederlands", de: "Duits" };

/** What one command came to: the lines to print, and whether it did what was asked. */
interface Outcome {
  ok: boolean;
  lines: string[];
}

const done = (...lines: string[]): Outcome => ({ ok: true, lines });
const failed = (...lines: string[]): Outcome => ({ ok: false, lines });

const label = (orderId: number) => `Bestelling ${orderNumber(orderId)}`;

/** Why the lifecycle refused, as staff would say it: "wacht nog op betaling", "is verlopen". */
function refusal(status: OrderStatus): string {
  return status === "awaiting_payment" ? "wacht nog op betaling" : `is ${statusWords[status]}`;
}

/**
 * The order id behind what staff type: the shop's number (100001), also with the "FH-" the
 * contact form's example shows, which the shop itself does not print.
 */
function orderIdFrom(typed: string): number | undefined {
  return orderIdOf(typed.trim().replace(/^FH-/i, ""));
}

async function produce(lifecycle: OrderLifecycleRepository, orderId: number): Promise<Outcome> {
  const result = await lifecycle.applyOrderEvent(orderId, { type: "production_started" }, new Date());
  switch (result.kind) {
    case "changed":
      return done(`${label(orderId)} is in productie (was: ${statusWords[result.from]})`);
    case "unchanged":
      return done(`${label(orderId)} is al ${statusWords[result.status]}: niets veranderd`);
    case "refused":
      return failed(`${label(orderId)} ${refusal(result.status)}: niet in productie genomen`);
    case "unknown-order":
      return failed(`${label(orderId)} bestaat niet`);
  }
}

/**
 * Ships the order, first starting its production when it is paid: the shop has no separate
 * production step yet, so "ship" works from paid too. Two transitions, each stored with its
 * own time; a second run finds both done and changes nothing, and queues no second mail.
 */
async function ship(lifecycle: OrderLifecycleRepository, orderId: number, i18n: I18n): Promise<Outcome> {
  const started = await lifecycle.applyOrderEvent(orderId, { type: "production_started" }, new Date());
  if (started.kind === "unknown-order") return failed(`${label(orderId)} bestaat niet`);
  if (started.kind === "refused")
    return failed(`${label(orderId)} ${refusal(started.status)}: niet verzonden`);

  let mailed = "";
  // In the transaction that ships the order: the mail is queued with the change or not at all.
  const queueShippingMail: AfterChange = async (trx, _from, _to, change) => {
    const order = await orderForMail(trx, change.orderId);
    await enqueueMail(trx, shippingMail(i18n.t[order.locale], order, change.orderId, change.at), change.at);
    mailed = `${order.address.email} (${languages[order.locale]})`;
  };
  const result = await lifecycle.applyOrderEvent(orderId, { type: "shipped" }, new Date(), {
    afterChange: queueShippingMail,
  });
  switch (result.kind) {
    case "changed": {
      const path =
        started.kind === "changed" ? [started.from, started.to, result.to] : [result.from, result.to];
      const steps = path.map((status) => statusWords[status]).join(" → ");
      return done(`${label(orderId)} verzonden (${steps}); verzendmail klaargezet voor ${mailed}`);
    }
    case "unchanged":
      return done(`${label(orderId)} was al verzonden: niets veranderd, geen nieuwe mail`);
    case "refused":
      return failed(`${label(orderId)} ${refusal(result.status)}: niet verzonden`);
    case "unknown-order":
      return failed(`${label(orderId)} bestaat niet`);
  }
}

/**
 * The order as the shipping mail needs it: its lines, address and language. The repository
 * reads an order for the cart that placed it; staff may read any, so the cart comes from the
 * order's own row.
 */
async function orderForMail(trx: Kysely<Schema>, orderId: number) {
  const row = await trx
    .selectFrom("orders")
    .select("cart_id")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  const order = await orderRepository(trx).find(orderId, row.cart_id);
  if (!order || !isLocale(order.locale)) {
    throw new Error(`${label(orderId)} heeft geen bezorgadres of taal voor de verzendmail: niet verzonden`);
  }
  return { ...order, locale: order.locale };
}

async function show(
  db: Kysely<Schema>,
  lifecycle: OrderLifecycleRepository,
  orderId: number,
): Promise<Outcome> {
  const order = await db
    .selectFrom("orders")
    .select(["status", "locale", "created_at"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order) return failed(`${label(orderId)} bestaat niet`);
  const word = (status: string) => statusWords[status as OrderStatus] ?? status;
  const transitions = await lifecycle.transitionsOf(orderId);
  return done(
    `${label(orderId)} (${isLocale(order.locale) ? languages[order.locale] : order.locale}): ${word(order.status)}`,
    `  ${order.created_at}  geplaatst`,
    ...transitions.map(
      (t) =>
        `  ${t.at}  ${word(t.from)} → ${word(t.to)} (${t.event}${t.paymentId ? `, betaling ${t.paymentId}` : ""})`,
    ),
  );
}

async function run(args: string[]): Promise<Outcome> {
  const [command, typed, ...extra] = args;
  if (!command || typed === undefined || extra.length > 0 || !["produce", "ship", "show"].includes(command)) {
    return failed(usage);
  }
  const orderId = orderIdFrom(typed);
  if (orderId === undefined) return failed(`"${typed}" is geen bestelnummer (zoals 100001 of FH-100001)`);

  const config = readConfig();
  // A text missing from a locale file would reach the customer as a marker: refuse instead,
  // which undoes the shipping with it, so the next run can try again.
  const i18n = createI18n(loadMessages(resolve(projectRoot, "locales")), (key, locale) => {
    throw new Error(`tekst ontbreekt in locales/${locale}.json: ${key}`);
  });
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    const lifecycle = orderLifecycleRepository(database.db);
    if (command === "produce") return await produce(lifecycle, orderId);
    if (command === "ship") return await ship(lifecycle, orderId, i18n);
    return await show(database.db, lifecycle, orderId);
  } finally {
    await database.close();
  }
}

try {
  const outcome = await run(process.argv.slice(2));
  (outcome.ok ? process.stdout : process.stderr).write(`${outcome.lines.join("\n")}\n`);
  if (!outcome.ok) process.exitCode = 1;
} catch (err) {
  process.stderr.write(`Fout: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
