import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Locale } from "../../../server/i18n/locales.ts";
import type { CreatePaymentInput } from "../../../server/payments/provider.ts";
import {
  type TestPaymentProvider,
  type TestProviderOptions,
  testOutcomes,
  testPaymentProvider,
} from "../../../server/payments/test-provider.ts";
import type { Database } from "../../../server/store/database.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

interface WebhookCall {
  contentType: string | undefined;
  body: string;
}

/** The shop's webhook as the provider sees it: records each call and answers as told. */
async function startWebhook(answers: number[] = []) {
  const calls: WebhookCall[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      calls.push({ contentType: req.headers["content-type"], body });
      res.writeHead(answers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/betalingen/webhook`;
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const checkoutUrl = (id: string, locale: Locale) =>
  `https://shop.example.nl/${locale === "nl" ? "testbetaling" : "testzahlung"}/${id}`;

describe.each(testDatabases())("the test provider on $name", (target) => {
  const open = databasePerTest(target);
  let webhook: Awaited<ReturnType<typeof startWebhook>>;
  let warnings: string[];
  let database: Database;
  let provider: TestPaymentProvider;

  function providerOn(db: Database, options: Partial<TestProviderOptions> = {}) {
    return testPaymentProvider({
      db: db.db,
      checkoutUrl,
      log: { warn: (message) => warnings.push(message) },
      webhookRetryDelaysMs: [0, 0, 0],
      ...options,
    });
  }

  const payment = (overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput => ({
    amountCents: 3_495,
    description: "Bestelling FH-123456",
    locale: "nl",
    redirectUrl: "https://shop.example.nl/bestelling/FH-123456",
    webhookUrl: webhook.url,
    idempotencyKey: "order-FH-123456-1",
    metadata: { order: "FH-123456" },
    ...overrides,
  });

  beforeEach(async () => {
    warnings = [];
    webhook = await startWebhook();
    database = await open();
    provider = providerOn(database);
  });
  afterEach(async () => {
    await provider.idle();
    await webhook.close();
  });

  it("a new payment is open, with the shop's own test page as its checkout", async () => {
    const created = await provider.createPayment(payment({ locale: "de" }));

    expect(created.id).toMatch(/^tp_[\w-]{22}$/);
    expect(created.status).toBe("open");
    expect(created.checkoutUrl).toBe(`https://shop.example.nl/testzahlung/${created.id}`);
    expect(await provider.getPayment(created.id)).toEqual({
      id: created.id,
      status: "open",
      amountCents: 3_495,
      metadata: { order: "FH-123456" },
    });
    expect(webhook.calls).toEqual([]);
  });

  it("keeps everything the test page shows", async () => {
    const created = await provider.createPayment(payment({ method: "ideal" }));

    expect(await provider.details(created.id)).toMatchObject({
      id: created.id,
      status: "open",
      amountCents: 3_495,
      description: "Bestelling FH-123456",
      locale: "nl",
      redirectUrl: "https://shop.example.nl/bestelling/FH-123456",
      webhookUrl: webhook.url,
      metadata: { order: "FH-123456" },
      method: "ideal",
    });
  });

  it.each(testOutcomes)(
    "settling as %s gives that status and calls the webhook with the id",
    async (outcome) => {
      const created = await provider.createPayment(payment());

      const settled = await provider.settle(created.id, outcome);

      expect(settled?.status).toBe(outcome);
      expect((await provider.getPayment(created.id))?.status).toBe(outcome);
      expect(webhook.calls).toEqual([
        { contentType: "application/x-www-form-urlencoded", body: `id=${encodeURIComponent(created.id)}` },
      ]);
    },
  );

  it("the same idempotency key gives the same payment back", async () => {
    const first = await provider.createPayment(payment());
    const again = await provider.createPayment(payment({ amountCents: 1 }));
    const other = await provider.createPayment(payment({ idempotencyKey: "order-FH-123456-2" }));

    expect(again).toEqual(first);
    expect(other.id).not.toBe(first.id);
    expect((await provider.getPayment(first.id))?.amountCents).toBe(3_495);
  });

  it("twenty creates with one key at once make one payment", async () => {
    const created = await Promise.all(Array.from({ length: 20 }, () => provider.createPayment(payment())));

    expect(new Set(created.map((c) => c.id)).size).toBe(1);
    const rows = await database.db.selectFrom("test_payments").select("id").execute();
    expect(rows).toHaveLength(1);
  });

  it("another instance on the same database sees and settles the payment", async () => {
    const created = await provider.createPayment(payment());
    const otherInstance = providerOn(database);

    expect((await otherInstance.settle(created.id, "paid"))?.status).toBe("paid");
    expect((await provider.getPayment(created.id))?.status).toBe("paid");
    expect(webhook.calls).toHaveLength(1);
  });

  it("an unknown id gives undefined everywhere and calls no webhook", async () => {
    const unknown = `tp_${"A".repeat(22)}`;

    expect(provider.isPaymentId(unknown)).toBe(true);
    expect(await provider.getPayment(unknown)).toBeUndefined();
    expect(await provider.details(unknown)).toBeUndefined();
    expect(await provider.settle(unknown, "paid")).toBeUndefined();
    expect(webhook.calls).toEqual([]);
  });

  it.each(["", "tp_", "tp_short", `tr_${"A".repeat(22)}`, `tp_${"A".repeat(21)}'`, `tp_${"A".repeat(23)}`])(
    "a malformed id (%j) is refused before any query",
    async (id) => {
      expect(provider.isPaymentId(id)).toBe(false);
      expect(await provider.getPayment(id)).toBeUndefined();
      expect(await provider.details(id)).toBeUndefined();
      expect(await provider.settle(id, "paid")).toBeUndefined();
    },
  );

  it("a decided payment stays decided and calls no webhook again", async () => {
    const created = await provider.createPayment(payment());
    await provider.settle(created.id, "paid");

    const again = await provider.settle(created.id, "failed");

    expect(again?.status).toBe("paid");
    expect((await provider.getPayment(created.id))?.status).toBe("paid");
    expect(webhook.calls).toHaveLength(1);
  });

  it("a payment left open can still be paid, and each choice calls the webhook", async () => {
    const created = await provider.createPayment(payment());

    await provider.settle(created.id, "open");
    await provider.settle(created.id, "paid");

    expect((await provider.getPayment(created.id))?.status).toBe("paid");
    expect(webhook.calls).toHaveLength(2);
  });

  it("a webhook that is down does not make settle fail: it is logged and retried, then given up", async () => {
    const created = await provider.createPayment(payment());
    await webhook.close();

    const settled = await provider.settle(created.id, "paid");
    await provider.idle();

    expect(settled?.status).toBe("paid");
    expect((await provider.getPayment(created.id))?.status).toBe("paid");
    expect(warnings.filter((w) => w.includes(created.id) && w.includes("failed"))).toHaveLength(4);
    expect(warnings.at(-1)).toMatch(/gave up .* after 4 attempts/);
  });

  it("a webhook that answers with an error is called again until it takes the call", async () => {
    await webhook.close();
    webhook = await startWebhook([500, 503]);
    const created = await provider.createPayment(payment({ webhookUrl: webhook.url }));

    await provider.settle(created.id, "failed");
    await provider.idle();

    expect(webhook.calls.map((c) => c.body)).toEqual(Array(3).fill(`id=${encodeURIComponent(created.id)}`));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/answered 500/);
  });

  it("lists its own test methods, named in the shopper's language", async () => {
    const nl = await provider.listMethods({ amountCents: 3_495, locale: "nl" });
    const de = await provider.listMethods({ amountCents: 3_495, locale: "de" });

    expect(nl.map((m) => m.id)).toEqual(["ideal", "creditcard", "bancontact", "paypal"]);
    expect(de.map((m) => m.id)).toEqual(nl.map((m) => m.id));
    expect(nl.find((m) => m.id === "creditcard")?.description).toBe("Creditcard (test)");
    expect(de.find((m) => m.id === "creditcard")?.description).toBe("Kreditkarte (Test)");
  });

  it("refuses an amount that is not whole cents above zero", async () => {
    await expect(provider.createPayment(payment({ amountCents: 0 }))).rejects.toThrow(/amount/);
    await expect(provider.createPayment(payment({ amountCents: 12.5 }))).rejects.toThrow(/amount/);
  });

  describe("mandates and recurring charges", () => {
    const customer = () =>
      provider.createCustomer({
        name: "Carla Jansen",
        email: "carla@example.nl",
        locale: "nl",
        idempotencyKey: "c-1",
      });
    const recurring = (customerId: string, mandateId: string, key = "subscription-s-2027-01-01-1") =>
      provider.createRecurringPayment({
        amountCents: 599,
        description: "Fotohoek Plus",
        locale: "nl",
        customerId,
        mandateId,
        webhookUrl: webhook.url,
        testReturnUrl: "https://shop.example.nl/abonnement/status/s",
        idempotencyKey: key,
      });
    async function mandate() {
      const { id: customerId } = await customer();
      const first = await provider.createPayment(
        payment({ firstOfCustomer: customerId, idempotencyKey: "first" }),
      );
      expect((await provider.getPayment(first.id))?.mandateId).toBeUndefined();
      await provider.settle(first.id, "paid");
      const mandateId = (await provider.getPayment(first.id))?.mandateId;
      return { customerId, mandateId: mandateId as string, firstId: first.id };
    }

    it("a customer is made once per idempotency key", async () => {
      const made = await customer();
      expect(made.id).toMatch(/^cst_/);
      expect((await customer()).id).toBe(made.id);
    });

    it("a paid first payment makes a mandate; a failed one makes none", async () => {
      const { mandateId } = await mandate();
      expect(mandateId).toMatch(/^mdt_/);

      const { id: customerId } = await customer();
      const failed = await provider.createPayment(
        payment({ firstOfCustomer: customerId, idempotencyKey: "f2" }),
      );
      await provider.settle(failed.id, "failed");
      expect((await provider.getPayment(failed.id))?.mandateId).toBeUndefined();
    });

    it("a recurring charge waits open on its own test page until the tester decides it, and calls the webhook", async () => {
      const { customerId, mandateId } = await mandate();
      const calls = webhook.calls.length;

      const charge = await recurring(customerId, mandateId);

      expect(charge.status).toBe("open");
      expect(charge.testPageUrl).toBe(`https://shop.example.nl/testbetaling/${charge.id}`);
      expect((await recurring(customerId, mandateId)).id).toBe(charge.id);
      expect((await provider.details(charge.id))?.sequenceType).toBe("recurring");
      expect(webhook.calls).toHaveLength(calls);
      await provider.settle(charge.id, "failed");
      expect((await provider.getPayment(charge.id))?.status).toBe("failed");
      expect(webhook.calls.at(-1)?.body).toBe(`id=${encodeURIComponent(charge.id)}`);
    });

    it("a revoked mandate, or another customer's, is charged nothing", async () => {
      const { customerId, mandateId } = await mandate();
      await expect(recurring("cst_someoneelse", mandateId, "k1")).rejects.toThrow(/no valid mandate/);
      await provider.revokeMandate({ customerId, mandateId });
      await provider.revokeMandate({ customerId, mandateId });
      await expect(recurring(customerId, mandateId, "k2")).rejects.toThrow(/no valid mandate/);
    });

    it("refunds part of a paid payment once per key, never more than was paid", async () => {
      const { firstId } = await mandate();
      const refund = {
        paymentId: firstId,
        amountCents: 2_000,
        description: "Herroeping",
        idempotencyKey: "r1",
      };

      const made = await provider.refundPayment(refund);
      expect((await provider.refundPayment(refund)).id).toBe(made.id);
      await expect(
        provider.refundPayment({ ...refund, amountCents: 1_496, idempotencyKey: "r2" }),
      ).rejects.toThrow(/cannot refund/);
      expect(await provider.refundsOf(firstId)).toEqual([{ id: made.id, amountCents: 2_000 }]);
    });
  });
});
