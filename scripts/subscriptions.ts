// `npm run subscriptions -- renew [--as-of 2027-01-02] | show <id> | withdraw <id> --as-of <date>`:
// the photo subscriptions' renewals, by hand, on the shop's own database (DATABASE_URL) and
// through its configured payment provider. `renew` runs the renewal job (as the running shop
// does every hour, under the same lock) for a day; `show` prints a subscription's life;
// `withdraw` registers a withdrawal that customer service received by letter or phone on
// that day, refused past the 14 days. Mails are queued in the outbox, so the running shop's
// sender delivers them. The staff using this speak Dutch, so it answers in Dutch.
import { resolve } from "node:path";
import { projectRoot, readConfig } from "../server/config.ts";
import { localMoment } from "../server/domain/delivery-times.ts";
import type { SubscriptionStatus } from "../server/domain/subscription-lifecycle.ts";
import { createI18n, loadMessages } from "../server/i18n/index.ts";
import { runRenewals } from "../server/jobs/subscription-renewal.ts";
import { paymentProvider } from "../server/payments/index.ts";
import { shopOrigin, subscriptionCharges } from "../server/payments/subscription-charges.ts";
import { withdrawSubscription } from "../server/payments/subscription-withdrawal.ts";
import { type Database, openDatabase } from "../server/store/database.ts";
import { migrateToLatest } from "../server/store/migrate.ts";
import { subscriptionChargeRepository } from "../server/store/subscription-charge-repository.ts";
import { subscriptionRepository } from "../server/store/subscription-repository.ts";

const usage =
  "Gebruik: npm run subscriptions -- renew [--as-of JJJJ-MM-DD] | show <abonnement> | withdraw <abonnement> --as-of JJJJ-MM-DD";

const statusWords: Record<SubscriptionStatus, string> = {
  awaiting_payment: "wacht op betaling",
  active: "actief",
  past_due: "betaling mislukt, wordt opnieuw geprobeerd",
  suspended: "gepauzeerd",
  cancelling: "opgezegd, loopt tot het einde van de betaalde periode",
  cancelled: "opgezegd",
  expired: "vervallen",
  withdrawn: "herroepen",
};

interface Outcome {
  ok: boolean;
  lines: string[];
}
const done = (...lines: string[]): Outcome => ({ ok: true, lines });
const failed = (...lines: string[]): Outcome => ({ ok: false, lines });

const euros = (cents: number) => `€ ${(cents / 100).toFixed(2).replace(".", ",")}`;

/** A day as staff type it; undefined for anything that is not a real calendar day. */
function dayFrom(typed: string | undefined): string | undefined {
  if (!typed || !/^\d{4}-\d{2}-\d{2}$/.test(typed)) return undefined;
  const parsed = new Date(`${typed}T12:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === typed ? typed : undefined;
}

/** `--as-of DAY` out of the arguments; `missing` when absent, `bad` when not a day. */
function asOfIn(args: string[]): { day?: string; rest: string[]; bad?: string } {
  const at = args.indexOf("--as-of");
  if (at === -1) return { rest: args };
  const typed = args[at + 1];
  const day = dayFrom(typed);
  const rest = args.filter((_, i) => i !== at && i !== at + 1);
  return day ? { day, rest } : { rest, bad: typed ?? "" };
}

const silentLog = {
  info: () => {},
  warn: (value: unknown, message?: string) =>
    process.stderr.write(`waarschuwing: ${message ?? String(value)}\n`),
  error: (value: unknown, message?: string) => process.stderr.write(`fout: ${message ?? String(value)}\n`),
};

async function show(database: Database, id: string): Promise<Outcome> {
  const subscriptions = subscriptionRepository(database.db);
  const subscription = await subscriptions.get(id);
  if (!subscription) return failed(`Abonnement ${id} bestaat niet`);
  const charges = await subscriptionChargeRepository(database.db).ofSubscription(id);
  const first = await database.db
    .selectFrom("subscription_payments")
    .select(["payment_id", "status", "amount_cents", "checkout_url", "created_at"])
    .where("subscription_id", "=", id)
    .orderBy("attempt")
    .execute();
  // Failed months paid by hand from the mail's link (ADR 0106).
  const byHand = await database.db
    .selectFrom("by_hand_payments")
    .select([
      "period_start",
      "period_end",
      "attempt",
      "payment_id",
      "provider",
      "status",
      "amount_cents",
      "checkout_url",
    ])
    .where("subscription_id", "=", id)
    .orderBy("period_start")
    .orderBy("attempt")
    .execute();
  // Upgrades and downgrades (ADR 0108).
  const planChanges = await database.db
    .selectFrom("subscription_plan_changes")
    .selectAll()
    .where("subscription_id", "=", id)
    .orderBy("id")
    .execute();
  const transitions = await subscriptions.transitionsOf(id);
  const mails = subscription.email
    ? await database.db
        .selectFrom("outbox")
        .select(["kind", "created_at", "sent_at"])
        .where("to_address", "=", subscription.email)
        .where("kind", "like", "subscription-%")
        .orderBy("id")
        .execute()
    : [];
  const paidPeriods =
    (first.some((p) => p.status === "paid") ? 1 : 0) +
    new Set([
      ...charges.filter((c) => c.status === "paid").map((c) => c.periodStart),
      ...byHand.filter((p) => p.status === "paid").map((p) => p.period_start),
    ]).size;
  return done(
    `Abonnement ${id} (${subscription.planId}, ${subscription.locale === "de" ? "Duits" : "Nederlands"}, woont in ${subscription.country === "DE" ? "Duitsland" : "Nederland"}): ${statusWords[subscription.status]}`,
    `  betaald t/m: ${subscription.paidUntil ?? "nog niets betaald"}; betaalde periodes: ${paidPeriods}${subscription.endsOn ? `; eindigt op ${subscription.endsOn}` : ""}`,
    `  machtiging: ${subscription.mandateId ?? "geen"}`,
    "Eerste maand:",
    ...first.map(
      (p) =>
        `  ${p.created_at}  ${p.payment_id}  ${euros(Number(p.amount_cents))}  ${p.status}  ${p.checkout_url}`,
    ),
    "Afschrijvingen:",
    ...(charges.length === 0
      ? ["  nog geen"]
      : charges.map(
          (c) =>
            `  ${c.periodStart} t/m ${c.periodEnd}, poging ${c.attempt} (${c.dueOn}): ${euros(c.amountCents)}  ${c.paymentId ?? "nog niet bij de betaalprovider"}  ${c.status}${c.pageUrl ? `  testpagina: ${c.pageUrl}` : ""}`,
        )),
    "Zelf betaald (link in de mail):",
    ...(byHand.length === 0
      ? ["  nog niet"]
      : byHand.map(
          (p) =>
            `  ${p.period_start} t/m ${p.period_end}, poging ${p.attempt}: ${euros(Number(p.amount_cents))}  ${p.payment_id}  ${p.status}  ${p.provider === "test" ? "testpagina" : "betaalpagina"}: ${p.checkout_url}`,
        )),
    "Andere abonnementen gekozen:",
    ...(planChanges.length === 0
      ? ["  nog niet"]
      : planChanges.map(
          (c) =>
            `  ${c.created_at}  ${c.kind === "upgrade" ? "omhoog" : "omlaag"} ${c.from_plan_id} → ${c.to_plan_id} vanaf ${c.starts_on}${Number(c.amount_cents) > 0 ? `, ${euros(Number(c.amount_cents))} t/m ${c.period_end}` : ""}  ${c.status}${c.payment_id ? `  ${c.payment_id}` : ""}${c.test_page_url ? `  testpagina: ${c.test_page_url}` : ""}`,
        )),
    "Verloop:",
    ...transitions.map(
      (t) =>
        `  ${t.at}  ${statusWords[t.from]} → ${statusWords[t.to]} (${t.event}${t.paymentId ? `, betaling ${t.paymentId}` : ""})`,
    ),
    "Mails:",
    ...(mails.length === 0
      ? ["  geen"]
      : mails.map(
          (m) => `  ${m.created_at}  ${m.kind}  ${m.sent_at ? `verstuurd ${m.sent_at}` : "klaargezet"}`,
        )),
  );
}

async function run(args: string[]): Promise<Outcome> {
  const [command, ...rest] = args;
  const asOf = asOfIn(rest);
  if (asOf.bad !== undefined) return failed(`"${asOf.bad}" is geen datum (zoals 2027-01-02)`);
  const [id, ...extra] = asOf.rest;
  if (command === "renew" ? asOf.rest.length > 0 : !id || extra.length > 0) return failed(usage);
  if (command === "withdraw" && !asOf.day)
    return failed(`withdraw heeft --as-of nodig: de dag waarop de herroeping binnenkwam. ${usage}`);
  if (!["renew", "show", "withdraw"].includes(command ?? "")) return failed(usage);

  const config = readConfig();
  const i18n = createI18n(loadMessages(resolve(projectRoot, "locales")), (key, locale) => {
    throw new Error(`tekst ontbreekt in locales/${locale}.json: ${key}`);
  });
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
    const subscriptions = subscriptionRepository(database.db);
    const provider = paymentProvider(config, {
      database,
      testCheckoutUrl: (paymentId, locale) =>
        `${shopOrigin(config)}${i18n.routes.pathFor("testPayment", locale, { payment: paymentId })}`,
      log: silentLog,
    });
    const deps = { db: database.db, provider, subscriptions, i18n, log: silentLog, now: () => new Date() };
    if (command === "show") return await show(database, id as string);
    if (command === "withdraw") {
      const result = await withdrawSubscription(deps, id as string, asOf.day as string);
      switch (result.kind) {
        case "withdrawn":
          return done(
            `Abonnement ${id} herroepen op ${asOf.day}; ${result.refundCents > 0 ? `${euros(result.refundCents)} terugbetaald (${result.refundId})` : "niets terug te betalen"}; mail klaargezet`,
          );
        case "already-withdrawn":
          return done(`Abonnement ${id} was al herroepen: niets veranderd, geen nieuwe mail`);
        case "refused":
          return failed(
            result.deadline && asOf.day && asOf.day > result.deadline
              ? `Abonnement ${id}: de herroepingstermijn liep tot en met ${result.deadline}: niet herroepen`
              : `Abonnement ${id} is ${statusWords[result.status]}: niet herroepen`,
          );
        case "unavailable":
          return failed(
            `Abonnement ${id}: terugbetalen lukt nu niet bij de betaalprovider: niets veranderd, probeer het later opnieuw`,
          );
        case "unknown":
          return failed(`Abonnement ${id} bestaat niet`);
      }
    }
    const charges = subscriptionCharges({ ...deps, origin: shopOrigin(config) });
    const day = asOf.day ?? localMoment(new Date()).date;
    const renewed = await runRenewals({ database, charges, log: silentLog }, day);
    if (!renewed.ran) return done(`Verlengen op ${day}: een andere instantie is ermee bezig; niets gedaan`);
    const { charged, synced, ended, unavailable, priceNotices, upgradesSettled } = renewed.counts;
    return done(
      `Verlengen op ${day}: ${charged} afgeschreven of opnieuw geprobeerd, ${synced} nagevraagd, ${ended} beëindigd${priceNotices > 0 ? `, ${priceNotices} gemaild dat de aanbieding afloopt` : ""}${upgradesSettled > 0 ? `, ${upgradesSettled} overstap(pen) nagevraagd` : ""}${unavailable > 0 ? `, ${unavailable} niet bereikt (volgende keer opnieuw)` : ""}`,
    );
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
