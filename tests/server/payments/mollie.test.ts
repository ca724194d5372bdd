import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mollieProvider } from "../../../server/payments/mollie.ts";
import {
  type CreatePaymentInput,
  type PaymentProvider,
  PaymentProviderError,
  PaymentProviderUnavailable,
} from "../../../server/payments/provider.ts";
import { type FakeMollie, startFakeMollie, trustFakeMollie } from "../../support/fake-mollie.ts";

const order = (overrides: Partial<CreatePaymentInput> = {}): CreatePaymentInput => ({
  amountCents: 4_995,
  description: "Bestelling FH-123456",
  locale: "nl",
  redirectUrl: "https://shop.example.nl/bestelling/FH-123456",
  webhookUrl: "https://shop.example.nl/api/betalingen/webhook",
  idempotencyKey: "order-FH-123456-attempt-1",
  metadata: { order: "FH-123456" },
  ...overrides,
});

describe("the Mollie provider against a server that speaks Mollie's v2 API", () => {
  let untrust: () => void;
  let fake: FakeMollie;
  let mollie: PaymentProvider;

  beforeAll(() => {
    untrust = trustFakeMollie();
  });
  afterAll(() => untrust());
  beforeEach(async () => {
    fake = await startFakeMollie();
    mollie = mollieProvider({ apiKey: fake.apiKey, apiEndpoint: fake.apiEndpoint, timeoutMs: 5_000 });
  });
  afterEach(() => fake.close());

  const posts = () => fake.requests.filter((r) => r.method === "POST");

  it("creating a payment sends the amount as euros with two decimals and the shopper's details", async () => {
    const created = await mollie.createPayment(order({ method: "ideal" }));

    expect(created.id).toMatch(/^tr_/);
    expect(created.status).toBe("open");
    expect(created.checkoutUrl).toMatch(/^https:\/\/www\.mollie\.com\/checkout\//);
    const [request] = posts();
    expect(request?.path).toBe("/v2/payments");
    expect(request?.body).toEqual({
      amount: { currency: "EUR", value: "49.95" },
      description: "Bestelling FH-123456",
      redirectUrl: "https://shop.example.nl/bestelling/FH-123456",
      webhookUrl: "https://shop.example.nl/api/betalingen/webhook",
      locale: "nl_NL",
      metadata: { order: "FH-123456" },
      method: "ideal",
    });
  });

  it("sends the API key as a bearer token and the idempotency key as Mollie's header", async () => {
    await mollie.createPayment(order({ idempotencyKey: "key-for-one-click" }));

    const [request] = posts();
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(request?.headers["idempotency-key"]).toBe("key-for-one-click");
    // The key travels as a header only, never in the payment's data.
    expect(request?.body).not.toHaveProperty("idempotencyKey");
  });

  it("a second create with the same idempotency key gets the same payment back", async () => {
    const first = await mollie.createPayment(order());
    const again = await mollie.createPayment(order());

    expect(again.id).toBe(first.id);
    expect(posts().map((r) => r.headers["idempotency-key"])).toEqual([
      "order-FH-123456-attempt-1",
      "order-FH-123456-attempt-1",
    ]);
  });

  it.each([
    [1, "0.01"],
    [10, "0.10"],
    [100, "1.00"],
    [1_999, "19.99"],
    [2_000_000_07, "2000000.07"],
  ])("%i cents go out as %s, without float rounding", async (cents, value) => {
    await mollie.createPayment(order({ amountCents: cents }));

    expect(posts()[0]?.body?.amount).toEqual({ currency: "EUR", value });
  });

  it("a German shopper's payment page is asked for in de_DE", async () => {
    await mollie.createPayment(order({ locale: "de", description: "Bestellung FH-123456" }));

    expect(posts()[0]?.body?.locale).toBe("de_DE");
  });

  it("getting a payment reads its status, amount in cents and metadata", async () => {
    const created = await mollie.createPayment(order({ amountCents: 12_34 }));

    expect(await mollie.getPayment(created.id)).toEqual({
      id: created.id,
      status: "open",
      amountCents: 1_234,
      metadata: { order: "FH-123456" },
    });
    const get = fake.requests.find((r) => r.method === "GET");
    expect(get?.path).toBe(`/v2/payments/${created.id}`);
    expect(get?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
  });

  it.each(["paid", "failed", "canceled", "expired", "pending", "authorized"])(
    "Mollie's status %s is read as the same status",
    async (status) => {
      const created = await mollie.createPayment(order());
      fake.setStatus(created.id, status);

      expect((await mollie.getPayment(created.id))?.status).toBe(status);
    },
  );

  it("a status Mollie may add later is read as open, so nothing is decided on it", async () => {
    const created = await mollie.createPayment(order());
    fake.setStatus(created.id, "some-new-status");

    expect((await mollie.getPayment(created.id))?.status).toBe("open");
  });

  it("an id Mollie does not know gives undefined", async () => {
    expect(await mollie.getPayment("tr_doesnotexist")).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
  });

  it.each(["", "tp_abc", "tr_", "tr_../../methods", "tr_abc?x=1", "12345"])(
    "a malformed id (%j) gives undefined without a request",
    async (id) => {
      expect(mollie.isPaymentId(id)).toBe(false);
      expect(await mollie.getPayment(id)).toBeUndefined();
      expect(fake.requests).toHaveLength(0);
    },
  );

  it("the methods are the ones Mollie lists for the amount and locale, asked for in the query", async () => {
    const methods = await mollie.listMethods({ amountCents: 2_500, locale: "de" });

    expect(methods).toEqual([
      { id: "ideal", description: "iDEAL", imageUrl: expect.stringMatching(/ideal\.svg$/) },
      { id: "creditcard", description: "Kreditkarte", imageUrl: expect.stringMatching(/creditcard\.svg$/) },
      { id: "bancontact", description: "Bancontact", imageUrl: expect.stringMatching(/bancontact\.svg$/) },
    ]);
    const [request] = fake.requests;
    expect(request?.path).toBe("/v2/methods");
    expect(request?.query.get("amount[value]")).toBe("25.00");
    expect(request?.query.get("amount[currency]")).toBe("EUR");
    expect(request?.query.get("locale")).toBe("de_DE");
    expect(request?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
  });

  it("a larger amount gets the methods Mollie allows for it", async () => {
    const methods = await mollie.listMethods({ amountCents: 60_000, locale: "nl" });

    expect(methods.map((m) => m.id)).toEqual(["ideal", "creditcard", "bancontact", "in3"]);
    expect(methods.find((m) => m.id === "creditcard")?.description).toBe("Creditcard");
  });

  it("Mollie down: every call throws PaymentProviderUnavailable", async () => {
    const created = await mollie.createPayment(order());
    await fake.close();

    await expect(mollie.createPayment(order({ idempotencyKey: "other" }))).rejects.toBeInstanceOf(
      PaymentProviderUnavailable,
    );
    await expect(mollie.getPayment(created.id)).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    await expect(mollie.listMethods({ amountCents: 100, locale: "nl" })).rejects.toBeInstanceOf(
      PaymentProviderUnavailable,
    );
  });

  it("server errors, after the client's own retries, are PaymentProviderUnavailable", async () => {
    fake.failWith(503);

    await expect(mollie.createPayment(order())).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    // One attempt and the client's two retries, all with the same idempotency key.
    expect(posts().map((r) => r.headers["idempotency-key"])).toEqual(
      Array(3).fill("order-FH-123456-attempt-1"),
    );
  });

  it("Mollie that does not answer at all is PaymentProviderUnavailable once the time is up", async () => {
    const impatient = mollieProvider({ apiKey: fake.apiKey, apiEndpoint: fake.apiEndpoint, timeoutMs: 200 });
    fake.hang(true);

    await expect(impatient.getPayment("tr_abc123")).rejects.toBeInstanceOf(PaymentProviderUnavailable);
  });

  it("a refused key is a PaymentProviderError, not a reason to try again", async () => {
    const wrongKey = mollieProvider({
      apiKey: "test_wrongwrongwrongwrongwrongwr",
      apiEndpoint: fake.apiEndpoint,
    });

    const refusal = await wrongKey.createPayment(order()).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(PaymentProviderError);
    expect(refusal).not.toBeInstanceOf(PaymentProviderUnavailable);
    expect((refusal as Error).message).toMatch(/401/);
  });

  describe("recurring payments: a customer, a first payment making a mandate, charges on it", () => {
    const customer = () =>
      mollie.createCustomer({
        name: "Carla Jansen",
        email: "carla@example.nl",
        locale: "nl",
        idempotencyKey: "customer-sub1",
      });
    const recurring = (customerId: string, mandateId: string, key = "subscription-sub1-2027-01-01-1") =>
      mollie.createRecurringPayment({
        amountCents: 599,
        description: "Fotohoek Plus, 1 januari t/m 31 januari 2027",
        locale: "nl",
        customerId,
        mandateId,
        webhookUrl: "https://shop.example.nl/api/betalingen/webhook",
        testReturnUrl: "https://shop.example.nl/abonnement/status/sub1",
        idempotencyKey: key,
        metadata: { subscription: "sub1" },
      });

    it("creating a customer sends name, address and locale, with the idempotency key", async () => {
      const made = await customer();
      const again = await customer();

      expect(made.id).toMatch(/^cst_/);
      expect(again.id).toBe(made.id);
      const [request] = posts();
      expect(request?.path).toBe("/v2/customers");
      expect(request?.body).toEqual({ name: "Carla Jansen", email: "carla@example.nl", locale: "nl_NL" });
      expect(request?.headers["idempotency-key"]).toBe("customer-sub1");
    });

    it("a first payment names the customer and sequenceType first; once paid it reports its mandate", async () => {
      const { id: customerId } = await customer();
      const first = await mollie.createPayment(order({ firstOfCustomer: customerId }));

      expect(posts()[1]?.body).toMatchObject({ customerId, sequenceType: "first" });
      expect((await mollie.getPayment(first.id))?.mandateId).toBeUndefined();
      fake.setStatus(first.id, "paid");
      const paid = await mollie.getPayment(first.id);
      expect(paid?.mandateId).toMatch(/^mdt_/);
    });

    it("a recurring payment goes on the mandate without a redirect, and waits pending for the bank", async () => {
      const { id: customerId } = await customer();
      const first = await mollie.createPayment(order({ firstOfCustomer: customerId }));
      fake.setStatus(first.id, "paid");
      const mandateId = (await mollie.getPayment(first.id))?.mandateId as string;

      const charge = await recurring(customerId, mandateId);

      expect(charge).toEqual({
        id: expect.stringMatching(/^tr_/),
        status: "pending",
        testPageUrl: undefined,
      });
      const request = posts().at(-1);
      expect(request?.body).toEqual({
        amount: { currency: "EUR", value: "5.99" },
        description: "Fotohoek Plus, 1 januari t/m 31 januari 2027",
        webhookUrl: "https://shop.example.nl/api/betalingen/webhook",
        locale: "nl_NL",
        sequenceType: "recurring",
        customerId,
        mandateId,
        metadata: { subscription: "sub1" },
      });
      expect(request?.headers["idempotency-key"]).toBe("subscription-sub1-2027-01-01-1");
      expect((await recurring(customerId, mandateId)).id).toBe(charge.id);
      fake.setStatus(charge.id, "failed");
      expect((await mollie.getPayment(charge.id))?.status).toBe("failed");
    });

    it("revoking the mandate ends it: a next charge is refused, a second revoke is no error", async () => {
      const { id: customerId } = await customer();
      const first = await mollie.createPayment(order({ firstOfCustomer: customerId }));
      fake.setStatus(first.id, "paid");
      const mandateId = (await mollie.getPayment(first.id))?.mandateId as string;

      await mollie.revokeMandate({ customerId, mandateId });

      const revoke = fake.requests.at(-1);
      expect(revoke?.method).toBe("DELETE");
      expect(revoke?.path).toBe(`/v2/customers/${customerId}/mandates/${mandateId}`);
      expect(fake.mandateStatus(mandateId)).toBe("revoked");
      await expect(mollie.revokeMandate({ customerId, mandateId })).resolves.toBeUndefined();
      const refusal = await recurring(customerId, mandateId, "other-key").catch((err: unknown) => err);
      expect(refusal).toBeInstanceOf(PaymentProviderError);
      expect(refusal).not.toBeInstanceOf(PaymentProviderUnavailable);
    });

    it("a refund pays part of a paid payment back, once per idempotency key", async () => {
      const paid = await mollie.createPayment(order({ amountCents: 599 }));
      fake.setStatus(paid.id, "paid");
      const refund = {
        paymentId: paid.id,
        amountCents: 400,
        description: "Herroeping",
        idempotencyKey: "w-1",
      };

      const made = await mollie.refundPayment(refund);

      expect(made.id).toMatch(/^re_/);
      expect((await mollie.refundPayment(refund)).id).toBe(made.id);
      const request = posts().at(-1);
      expect(request?.path).toBe(`/v2/payments/${paid.id}/refunds`);
      expect(request?.body).toEqual({
        amount: { currency: "EUR", value: "4.00" },
        description: "Herroeping",
      });
      await expect(
        mollie.refundPayment({ ...refund, amountCents: 300, idempotencyKey: "w-2" }),
      ).rejects.toBeInstanceOf(PaymentProviderError);
    });
  });
});
