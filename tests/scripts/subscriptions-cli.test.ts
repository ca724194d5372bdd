import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../server/config.ts";
import { testPaymentProvider } from "../../server/payments/test-provider.ts";
import { type Database, openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { subscriptionRepository } from "../../server/store/subscription-repository.ts";
import { confirmedSubscription } from "../support/subscriptions.ts";

const execute = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "subscriptions-cli-"));
const databaseUrl = `sqlite://${join(dir, "shop.db")}`;
const shopAddress = "http://127.0.0.1:9";
let database: Database;

beforeAll(async () => {
  database = openDatabase(databaseUrl);
  await migrateToLatest(database);
});
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `npm run subscriptions -- …` as staff would, against the test's database file. */
async function subscriptions(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execute(
      process.execPath,
      ["--import", "tsx", "scripts/subscriptions.ts", ...args],
      {
        cwd: projectRoot,
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          DATA_DIR: dir,
          PUBLIC_URL: shopAddress,
          PAYMENT_PROVIDER: "test",
          COOKIE_SECRET: "subscriptions-cli-test-secret-0123456789",
          LOG_LEVEL: "silent",
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw err;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** An active subscription whose first payment (with the test provider) made a mandate, paid on `day`. */
async function subscribed(email: string, day: string): Promise<string> {
  const provider = testPaymentProvider({
    db: database.db,
    checkoutUrl: (id) => `${shopAddress}/testbetaling/${id}`,
    log: { warn: () => {} },
    webhookRetryDelaysMs: [],
  });
  const subscription = await confirmedSubscription(database.db, { email });
  const customer = await provider.createCustomer({
    name: "Carla Jansen",
    email,
    locale: "nl",
    idempotencyKey: `customer-${subscription.id}`,
  });
  const first = await provider.createPayment({
    amountCents: 599,
    description: "Fotohoek Plus",
    locale: "nl",
    redirectUrl: `${shopAddress}/abonnement/status/${subscription.id}`,
    webhookUrl: `${shopAddress}/api/betalingen/webhook`,
    idempotencyKey: `subscription-${subscription.id}-1`,
    firstOfCustomer: customer.id,
  });
  await provider.settle(first.id, "paid");
  await provider.idle();
  const mandateId = (await provider.getPayment(first.id))?.mandateId;
  const repository = subscriptionRepository(database.db);
  await database.db
    .insertInto("subscription_payments")
    .values({
      payment_id: first.id,
      subscription_id: subscription.id,
      provider: "test",
      attempt: 1,
      status: "paid",
      amount_cents: 599,
      checkout_url: first.checkoutUrl,
      failure_mailed_at: null,
      created_at: `${day}T10:00:00.000Z`,
      updated_at: `${day}T10:00:00.000Z`,
    })
    .execute();
  await repository.applyEvent(
    subscription.id,
    { type: "payment_paid", paymentId: first.id },
    new Date(`${day}T10:00:00Z`),
  );
  await repository.rememberProvider(subscription.id, {
    customerId: customer.id,
    ...(mandateId ? { mandateId } : {}),
  });
  return subscription.id;
}

describe("npm run subscriptions", () => {
  it("renew charges what is due once; show prints the charge with its test page", async () => {
    const id = await subscribed("renew-cli@example.test", "2026-11-28");

    const first = await subscriptions("renew", "--as-of", "2026-12-28");
    const again = await subscriptions("renew", "--as-of", "2026-12-28");

    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toContain("Verlengen op 2026-12-28: 1 afgeschreven");
    expect(again.stdout).toContain("Verlengen op 2026-12-28: 0 afgeschreven");
    const shown = await subscriptions("show", id);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`Abonnement ${id} (plus, Nederlands, woont in Nederland): actief`);
    expect(shown.stdout).toContain("betaald t/m: 2026-12-27; betaalde periodes: 1");
    expect(shown.stdout).toMatch(
      new RegExp(
        `2026-12-28 t/m 2027-01-27, poging 1 \\(2026-12-28\\): € 5,99  tp_\\S+  open  testpagina: ${shopAddress}/testbetaling/tp_`,
      ),
    );
    expect(shown.stdout).toContain("subscription-confirm");
  });

  it("withdraw is refused past the 14 days and refunds within them", async () => {
    const late = await subscribed("late-cli@example.test", "2026-11-28");
    const early = await subscribed("early-cli@example.test", "2026-11-28");

    const refused = await subscriptions("withdraw", late, "--as-of", "2026-12-13");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("de herroepingstermijn liep tot en met 2026-12-12: niet herroepen");

    const withdrawn = await subscriptions("withdraw", early, "--as-of", "2026-12-12");
    expect(withdrawn.code).toBe(0);
    expect(withdrawn.stdout).toMatch(
      /herroepen op 2026-12-12; € 2,99 terugbetaald \(re_\S+\); mail klaargezet/,
    );
    expect((await subscriptions("show", early)).stdout).toContain("herroepen");
  });

  it("refuses what it cannot do, in one line and with exit 1", async () => {
    expect(await subscriptions("show", "nobody")).toMatchObject({
      code: 1,
      stderr: "Abonnement nobody bestaat niet\n",
    });
    expect((await subscriptions("renew", "--as-of", "2027-02-30")).stderr).toContain("is geen datum");
    expect((await subscriptions("withdraw", "x")).stderr).toContain("withdraw heeft --as-of nodig");
    expect((await subscriptions("frobnicate")).code).toBe(1);
  });
});
