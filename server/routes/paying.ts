import type { FastifyReply, FastifyRequest } from "fastify";
import type { PaymentState } from "../../islands/payment-status/contract.ts";
import { takeFlash, writeFlash } from "../http/cookies/flash-cookie.ts";
import { originOf } from "../http/rendering/origin.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import type { StartResult } from "../payments/payable.ts";
import { isFinalStatus, type PaymentMethod, type PaymentStatus } from "../payments/provider.ts";

/**
 * What the pages that take a payment share (the order page, a subscription's page): sending
 * the shopper to the provider, saying where paying stands, and the methods to pay again with.
 */

/** The flash a page reads after a payment could not be started. */
const paymentFlash = "payment";

/**
 * Starts (or finds the open) payment and sends the shopper on: to the provider's page, or
 * back to `page`, which says why when the provider could not be reached. Nothing is lost
 * either way: what is paid for stays awaiting payment.
 */
export async function payAndGo(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  start: (options: { origin: string; method?: string }) => Promise<StartResult | { kind: string }>,
  page: string,
  method?: string,
): Promise<FastifyReply> {
  let result: StartResult | { kind: string; checkoutUrl?: string };
  try {
    result = await start({ origin: originOf(request, services), ...(method ? { method } : {}) });
  } catch (err) {
    // A refusal by the provider (a bad key, say) is the shop's to fix; the shopper gets the same page.
    request.log.error({ err }, "payment could not be started");
    result = { kind: "unavailable" };
  }
  if (result.kind === "started" && "checkoutUrl" in result && result.checkoutUrl) {
    return reply.redirect(result.checkoutUrl, 303);
  }
  if (result.kind === "unavailable") writeFlash(reply, paymentFlash, "unavailable");
  return reply.redirect(page, 303);
}

/** "unavailable" when the last try to start a payment could not reach the provider. */
export function takePaymentNotice(request: FastifyRequest, reply: FastifyReply): "unavailable" | undefined {
  return takeFlash<string>(request, reply, paymentFlash) === "unavailable" ? "unavailable" : undefined;
}

/**
 * Where paying stands for something still awaiting payment, from its latest payment. A paid
 * payment whose order or subscription is not marked yet is being applied: wait for it like
 * an open one.
 */
export function paymentProgress(payment: { status: PaymentStatus } | undefined): PaymentState {
  if (!payment) return "none";
  if (payment.status === "paid" || !isFinalStatus(payment.status)) return "open";
  return "failed";
}

/** The provider's methods for paying again; none when it cannot say (its page then asks). */
export async function methodsFor(
  services: Services,
  request: FastifyRequest,
  amountCents: number,
  locale: Locale,
): Promise<PaymentMethod[]> {
  try {
    return await services.orderPayments.methods(amountCents, locale);
  } catch (err) {
    request.log.warn({ err }, "payment methods could not be listed");
    return [];
  }
}

/** The method a pay-again form asked for, when the provider offers it; else its page asks. */
export async function chosenMethod(
  services: Services,
  request: FastifyRequest,
  amountCents: number,
): Promise<string | undefined> {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const asked = typeof body.method === "string" ? body.method : "";
  if (!asked) return undefined;
  return (await methodsFor(services, request, amountCents, request.locale)).find((m) => m.id === asked)?.id;
}
