import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";

/** A provider's call carries one short id; anything longer is not one, and is not read further. */
const bodyLimit = 4 * 1024;

/** The id from a form post (id=tr_...) or a JSON body ({"id": "tr_..."}); undefined for anything else. */
function idFrom(contentType: string | undefined, body: string): string | undefined {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return new URLSearchParams(body).get("id") ?? undefined;
  if (type === "application/json") {
    try {
      const parsed: unknown = JSON.parse(body);
      const id = typeof parsed === "object" && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
      return typeof id === "string" ? id : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** What a log line may repeat of someone else's input: short, and on one line. */
const quoted = (value: string | undefined) =>
  value === undefined ? "none" : JSON.stringify(value.slice(0, 80));

/**
 * The payment webhook, one address for every provider: POST with the payment's id. The body
 * is trusted for nothing but the id; the payment's status is fetched from the provider
 * (orderPayments.sync, subscriptionPayments.sync), which applies it once however often and
 * in whatever order calls come. Every call answers 200 with an empty body, an unknown or malformed id too (with one warning
 * in the log), so a provider never retries what can never succeed. Only when the shop itself
 * could not do the work (its database, or the provider, unreachable) does it answer 503: the
 * provider calls again later, and nothing was half-done.
 */
export async function paymentWebhookRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
): Promise<void> {
  const { orderPayments, subscriptionPayments, subscriptionCharges, byHandPayments, planChanges, payments } =
    services;

  await app.register(async (scope) => {
    // Providers post forms, some JSON; a body that is neither, or broken, or too long, still
    // gets the webhook's own answer instead of the framework's 4xx.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit }, (request, body, done) => {
      done(null, { id: idFrom(request.headers["content-type"], String(body)) });
    });
    scope.setErrorHandler(async (error: { statusCode?: number }, request, reply) => {
      if ((error.statusCode ?? 500) < 500 && error.statusCode !== 429) {
        request.log.warn({ status: error.statusCode }, "payment webhook: unreadable call ignored");
        return reply.code(200).send();
      }
      if (error.statusCode === 429) return reply.code(429).send();
      request.log.error({ err: error }, "payment webhook failed; the provider calls again");
      return reply.code(503).send();
    });

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header("cache-control", "no-store");
      const id = (request.body as { id?: string } | undefined)?.id;
      if (!payments.isPaymentId(id)) {
        request.log.warn(`payment webhook: malformed payment id ${quoted(id)} ignored`);
        return reply.code(200).send();
      }
      // A payment belongs to an order, a subscription's first period, a later period's
      // charge, a failed period paid by hand or an upgrade's charge; each looks it up in its own table.
      const synced =
        (await orderPayments.sync(id)) ??
        (await subscriptionPayments.sync(id)) ??
        (await subscriptionCharges.sync(id)) ??
        (await byHandPayments.sync(id)) ??
        (await planChanges.sync(id));
      if (!synced) request.log.warn(`payment webhook: unknown payment ${quoted(id)} ignored`);
      else request.log.info({ paymentId: id, ...synced }, "payment webhook applied");
      return reply.code(200).send();
    };

    routes.on(scope)("paymentWebhook", "POST", handler, {
      csrf: false,
      // A public address: generous enough for a provider's bursts, not for a flood.
      rateLimit: { max: 300, timeWindow: "1 minute" },
    });
  });
}
