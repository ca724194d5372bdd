import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";

/**
 * The part of Mollie's v2 API the shop uses, on a local HTTPS server: create a payment, get
 * one, list methods; create a customer, a first payment that makes a mandate once paid, a
 * recurring payment on a valid mandate (422 without one, as Mollie), revoke a mandate, and
 * refund a paid payment. The JSON has Mollie's shapes (as @mollie/api-client's type definitions
 * describe them: PaymentData, MethodData, ApiError's body), so the real client reads it as it
 * reads Mollie. Every request is recorded for the tests to check.
 *
 * HTTPS because the client refuses plain http for its endpoint (it passes an https agent);
 * that agent trusts only the client's own bundled CAs, so a test using this server turns
 * certificate checks off for its worker (trustFakeMollie). The certificate below was made
 * once with `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -days 36500
 * -nodes -subj /CN=fake-mollie.test`; its key protects nothing.
 */
const testKey = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg7xCpRt2ZmSpZaAhv
VNvGMuCt7qdNBLTQUWfwvsBHfQqhRANCAAThfcG0aqwjSLLyWeAbYDEl94ZlMqQE
XuaoE/Turg7L1tupV0P3Jd0E72k2/LaOe30BeEYWRwIQkcCSZQwgUO/+
-----END PRIVATE KEY-----
`;
const testCertificate = `-----BEGIN CERTIFICATE-----
MIIBnTCCAUSgAwIBAgIUa35M3EK3j+t2zat7VmZ/+X2/POEwCgYIKoZIzj0EAwIw
GzEZMBcGA1UEAwwQZmFrZS1tb2xsaWUudGVzdDAgFw0yNjExMjUyMjA2MDJaGA8y
MTI2MTEwMTIyMDYwMlowGzEZMBcGA1UEAwwQZmFrZS1tb2xsaWUudGVzdDBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABOF9wbRqrCNIsvJZ4BtgMSX3hmUypARe5qgT
9O6uDsvW26lXQ/cl3QTvaTb8to57fQF4RhZHAhCRwJJlDCBQ7/6jZDBiMB0GA1Ud
DgQWBBRrgYKV4flQgaOCleQAWz2OJDyh9TAfBgNVHSMEGDAWgBRrgYKV4flQgaOC
leQAWz2OJDyh9TAPBgNVHRMBAf8EBTADAQH/MA8GA1UdEQQIMAaHBH8AAAEwCgYI
KoZIzj0EAwIDRwAwRAIgBwQaAVQ4OcX6I+qOENakF1ueW49IJoOvvGXEKqU5lVAC
IHE+CY95NMEEyQn46BfaO++qHVK2pr00CKiQxMlBEp9J
-----END CERTIFICATE-----
`;

/**
 * The client pins its own CA list, so the fake's self-signed certificate can only be
 * accepted with certificate checks off. Node reads this variable on every connection; it is
 * set for this test worker only and put back by the returned function.
 */
export function trustFakeMollie(): () => void {
  const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  return () => {
    if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
  };
}

export interface RecordedRequest {
  method: string;
  /** The path without the query, such as /v2/payments */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, for posts */
  body: Record<string, unknown> | undefined;
}

export interface FakeMethod {
  id: string;
  description: Record<string, string>;
  minimumCents: number;
  maximumCents: number | null;
}

/** What Mollie offers a Dutch test profile, in short: names per locale, amount limits as Mollie's. */
const defaultMethods: FakeMethod[] = [
  { id: "ideal", description: { nl_NL: "iDEAL", de_DE: "iDEAL" }, minimumCents: 1, maximumCents: 5_000_000 },
  {
    id: "creditcard",
    description: { nl_NL: "Creditcard", de_DE: "Kreditkarte" },
    minimumCents: 1,
    maximumCents: 1_000_000,
  },
  {
    id: "bancontact",
    description: { nl_NL: "Bancontact", de_DE: "Bancontact" },
    minimumCents: 2,
    maximumCents: 5_000_000,
  },
  {
    id: "in3",
    description: { nl_NL: "iDEAL in3", de_DE: "iDEAL in3" },
    minimumCents: 5_000,
    maximumCents: 500_000,
  },
];

export interface FakeMollie {
  /** The API root to give the client, such as https://127.0.0.1:12345/v2/ */
  apiEndpoint: string;
  /** The key the fake accepts; any other gets Mollie's 401. */
  apiKey: string;
  requests: RecordedRequest[];
  /** Mollie moving a payment on (the shopper paid, the bank refused, ...); a paid first payment makes a mandate. */
  setStatus(id: string, status: string): void;
  /** "valid" or "revoked"; undefined for a mandate the fake never made. */
  mandateStatus(id: string): string | undefined;
  /** From now on every request gets this server error (with Retry-After: 0, so the client's retries are quick). */
  failWith(status: number | undefined): void;
  /** From now on requests get no answer at all. */
  hang(hanging: boolean): void;
  close(): Promise<void>;
}

const euro = (cents: number) => ({ currency: "EUR", value: (cents / 100).toFixed(2) });

function centsOf(value: unknown): number {
  return Math.round(Number(value) * 100);
}

function mollieError(status: number, title: string, detail: string, field?: string) {
  return {
    status,
    title,
    detail,
    ...(field ? { field } : {}),
    _links: {
      documentation: { href: "https://docs.mollie.com/overview/handling-errors", type: "text/html" },
    },
  };
}

export async function startFakeMollie({ methods = defaultMethods } = {}): Promise<FakeMollie> {
  const apiKey = `test_${randomBytes(15).toString("hex")}`;
  const requests: RecordedRequest[] = [];
  const payments = new Map<string, Record<string, unknown>>();
  const byIdempotencyKey = new Map<string, string>();
  const customers = new Map<string, Record<string, unknown>>();
  const mandates = new Map<string, Record<string, unknown>>();
  const refunds = new Map<string, Record<string, unknown>>();
  let failure: number | undefined;
  let hanging = false;
  let origin = "";

  function payment(id: string) {
    const stored = payments.get(id);
    if (!stored) return undefined;
    return {
      ...stored,
      _links: {
        self: { href: `${origin}/v2/payments/${id}`, type: "application/hal+json" },
        // Mollie offers checkout only while the shopper can still pay.
        ...(stored.status === "open"
          ? {
              checkout: {
                href: `https://www.mollie.com/checkout/select-method/${id.slice(3)}`,
                type: "text/html",
              },
            }
          : {}),
        dashboard: { href: `https://my.mollie.com/dashboard/payments/${id}`, type: "text/html" },
        documentation: { href: "https://docs.mollie.com/reference/get-payment", type: "text/html" },
      },
    };
  }

  function mandate(id: string) {
    const stored = mandates.get(id);
    if (!stored) return undefined;
    return {
      ...stored,
      _links: {
        self: {
          href: `${origin}/v2/customers/${stored.customerId}/mandates/${id}`,
          type: "application/hal+json",
        },
        customer: { href: `${origin}/v2/customers/${stored.customerId}`, type: "application/hal+json" },
        documentation: { href: "https://docs.mollie.com/reference/get-mandate", type: "text/html" },
      },
    };
  }

  function createCustomer(body: Record<string, unknown>, idempotencyKey: string | undefined) {
    const existing = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
    const id = existing ?? `cst_${randomBytes(5).toString("hex")}`;
    if (!existing) {
      customers.set(id, {
        resource: "customer",
        id,
        mode: "test",
        name: body.name ?? null,
        email: body.email ?? null,
        locale: body.locale ?? null,
        metadata: body.metadata ?? null,
        createdAt: new Date().toISOString(),
      });
      if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, id);
    }
    return {
      status: 201,
      json: {
        ...customers.get(id),
        _links: {
          self: { href: `${origin}/v2/customers/${id}`, type: "application/hal+json" },
          dashboard: { href: `https://my.mollie.com/dashboard/customers/${id}`, type: "text/html" },
          documentation: { href: "https://docs.mollie.com/reference/create-customer", type: "text/html" },
        },
      },
    };
  }

  function refund(paymentId: string, body: Record<string, unknown>, idempotencyKey: string | undefined) {
    const existing = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
    if (existing) return { status: 201, json: refunds.get(existing) };
    const paid = payments.get(paymentId);
    if (!paid)
      return {
        status: 404,
        json: mollieError(404, "Not Found", `No payment exists with token ${paymentId}.`),
      };
    if (paid.status !== "paid") {
      return {
        status: 422,
        json: mollieError(422, "Unprocessable Entity", "The payment cannot be refunded"),
      };
    }
    const amount = body.amount as { value?: unknown } | undefined;
    const already = [...refunds.values()]
      .filter((r) => r.paymentId === paymentId)
      .reduce((sum, r) => sum + centsOf((r.amount as { value: string }).value), 0);
    const cents = centsOf(amount?.value);
    if (!(cents > 0) || cents + already > centsOf((paid.amount as { value: string }).value)) {
      return {
        status: 422,
        json: mollieError(
          422,
          "Unprocessable Entity",
          "The amount is higher than the amount left to refund",
          "amount",
        ),
      };
    }
    const id = `re_${randomBytes(5).toString("hex")}`;
    refunds.set(id, {
      resource: "refund",
      id,
      mode: "test",
      amount: euro(cents),
      status: "pending",
      description: body.description ?? "",
      metadata: null,
      paymentId,
      createdAt: new Date().toISOString(),
      _links: {
        self: { href: `${origin}/v2/payments/${paymentId}/refunds/${id}`, type: "application/hal+json" },
        payment: { href: `${origin}/v2/payments/${paymentId}`, type: "application/hal+json" },
        documentation: { href: "https://docs.mollie.com/reference/create-refund", type: "text/html" },
      },
    });
    if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, id);
    return { status: 201, json: refunds.get(id) };
  }

  function create(body: Record<string, unknown>, idempotencyKey: string | undefined) {
    const existing = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
    if (existing) return { status: 201, json: payment(existing) };
    const sequenceType = typeof body.sequenceType === "string" ? body.sequenceType : "oneoff";
    const customerId = typeof body.customerId === "string" ? body.customerId : undefined;
    if (sequenceType !== "oneoff" && (!customerId || !customers.has(customerId))) {
      return {
        status: 422,
        json: mollieError(422, "Unprocessable Entity", "The customer id is invalid", "customerId"),
      };
    }
    if (sequenceType === "recurring") {
      const chosen = typeof body.mandateId === "string" ? mandates.get(body.mandateId) : undefined;
      if (chosen?.status !== "valid" || chosen.customerId !== customerId) {
        return {
          status: 422,
          json: mollieError(422, "Unprocessable Entity", "The customer has no valid mandates", "customerId"),
        };
      }
    }
    const amount = body.amount as { currency?: unknown; value?: unknown } | undefined;
    if (!amount || typeof amount.value !== "string" || !/^\d+\.\d{2}$/.test(amount.value)) {
      return {
        status: 422,
        json: mollieError(
          422,
          "Unprocessable Entity",
          "The amount contains an invalid value",
          "amount.value",
        ),
      };
    }
    // A recurring payment has no shopper to send back: Mollie needs no redirectUrl for it.
    for (const field of sequenceType === "recurring" ? ["description"] : ["description", "redirectUrl"]) {
      if (typeof body[field] !== "string" || body[field] === "") {
        return {
          status: 422,
          json: mollieError(422, "Unprocessable Entity", `The ${field} is missing`, field),
        };
      }
    }
    const id = `tr_${randomBytes(6).toString("hex")}`;
    const now = new Date();
    payments.set(id, {
      resource: "payment",
      id,
      mode: "test",
      createdAt: now.toISOString(),
      amount: { currency: amount.currency, value: amount.value },
      description: body.description,
      method: body.method ?? null,
      metadata: body.metadata ?? null,
      // A recurring payment is charged at once and waits for the bank: pending, no checkout.
      status: sequenceType === "recurring" ? "pending" : "open",
      isCancelable: false,
      expiresAt: new Date(now.getTime() + 15 * 60_000).toISOString(),
      profileId: "pfl_QkEhN94Ba",
      sequenceType,
      ...(customerId ? { customerId } : {}),
      ...(sequenceType === "recurring" ? { mandateId: body.mandateId } : {}),
      redirectUrl: body.redirectUrl,
      webhookUrl: body.webhookUrl,
      locale: body.locale ?? "nl_NL",
    });
    if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, id);
    return { status: 201, json: payment(id) };
  }

  function listMethods(query: URLSearchParams) {
    const value = query.get("amount[value]");
    const cents = value === null ? undefined : centsOf(value);
    const locale = query.get("locale") ?? "en_US";
    const offered = methods.filter(
      (m) =>
        cents === undefined ||
        (cents >= m.minimumCents && (m.maximumCents === null || cents <= m.maximumCents)),
    );
    return {
      count: offered.length,
      _embedded: {
        methods: offered.map((m) => ({
          resource: "method",
          id: m.id,
          description: m.description[locale] ?? m.id,
          minimumAmount: euro(m.minimumCents),
          maximumAmount: m.maximumCents === null ? null : euro(m.maximumCents),
          image: {
            size1x: `https://www.mollie.com/external/icons/payment-methods/${m.id}.png`,
            size2x: `https://www.mollie.com/external/icons/payment-methods/${m.id}%402x.png`,
            svg: `https://www.mollie.com/external/icons/payment-methods/${m.id}.svg`,
          },
          status: "activated",
          _links: {
            self: { href: `${origin}/v2/methods/${m.id}`, type: "application/hal+json" },
          },
        })),
      },
      _links: {
        self: { href: `${origin}/v2/methods`, type: "application/hal+json" },
        documentation: { href: "https://docs.mollie.com/reference/list-methods", type: "text/html" },
      },
    };
  }

  const server: Server = createServer({ key: testKey, cert: testCertificate }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "https://fake-mollie.test");
      const text = Buffer.concat(chunks).toString("utf8");
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      requests.push({
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      });
      if (hanging) return;

      const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/hal+json", ...headers });
        res.end(JSON.stringify(json));
      };
      if (failure !== undefined) {
        return answer(failure, mollieError(failure, "Service Unavailable", "Try again later"), {
          "retry-after": "0",
        });
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        return answer(
          401,
          mollieError(401, "Unauthorized Request", "Missing authentication, or failed to authenticate"),
        );
      }
      const paymentPath = /^\/v2\/payments\/([^/]+)$/.exec(url.pathname);
      const refundPath = /^\/v2\/payments\/([^/]+)\/refunds$/.exec(url.pathname);
      const mandatePath = /^\/v2\/customers\/([^/]+)\/mandates\/([^/]+)$/.exec(url.pathname);
      const key = req.headers["idempotency-key"];
      const idempotencyKey = typeof key === "string" ? key : undefined;
      if (req.method === "POST" && url.pathname === "/v2/customers") {
        const created = createCustomer(body ?? {}, idempotencyKey);
        return answer(created.status, created.json);
      }
      if (req.method === "POST" && refundPath?.[1]) {
        const made = refund(refundPath[1], body ?? {}, idempotencyKey);
        return answer(made.status, made.json);
      }
      if (mandatePath?.[2]) {
        const found = mandates.get(mandatePath[2]);
        if (!found || found.customerId !== mandatePath[1])
          return answer(
            404,
            mollieError(404, "Not Found", `No mandate exists with token ${mandatePath[2]}.`),
          );
        if (req.method === "GET") return answer(200, mandate(mandatePath[2]));
        if (req.method === "DELETE") {
          // Mollie answers a revoked mandate's revoke with 410 Gone.
          if (found.status === "revoked")
            return answer(410, mollieError(410, "Gone", "The mandate has been revoked"));
          found.status = "revoked";
          res.writeHead(204);
          return res.end();
        }
      }
      if (req.method === "POST" && url.pathname === "/v2/payments") {
        const created = create(body ?? {}, idempotencyKey);
        return answer(created.status, created.json);
      }
      if (req.method === "GET" && paymentPath?.[1]) {
        const found = payment(paymentPath[1]);
        return found
          ? answer(200, found)
          : answer(404, mollieError(404, "Not Found", `No payment exists with token ${paymentPath[1]}.`));
      }
      if (req.method === "GET" && url.pathname === "/v2/methods")
        return answer(200, listMethods(url.searchParams));
      return answer(404, mollieError(404, "Not Found", "The resource does not exist"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiEndpoint: `${origin}/v2/`,
    apiKey,
    requests,
    setStatus(id, status) {
      const stored = payments.get(id);
      if (!stored) throw new Error(`the fake has no payment ${id}`);
      stored.status = status;
      // A paid first payment makes the customer's mandate, as Mollie does.
      if (status === "paid" && stored.sequenceType === "first" && !stored.mandateId) {
        const mandateId = `mdt_${randomBytes(5).toString("hex")}`;
        mandates.set(mandateId, {
          resource: "mandate",
          id: mandateId,
          mode: "test",
          status: "valid",
          method: "directdebit",
          details: {
            consumerName: "T. TEST",
            consumerAccount: "NL55INGB0000000000",
            consumerBic: "INGBNL2A",
          },
          mandateReference: null,
          signatureDate: new Date().toISOString().slice(0, 10),
          createdAt: new Date().toISOString(),
          customerId: stored.customerId,
        });
        stored.mandateId = mandateId;
      }
    },
    mandateStatus: (id) => mandates.get(id)?.status as string | undefined,
    failWith(status) {
      failure = status;
    },
    hang(value) {
      hanging = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
