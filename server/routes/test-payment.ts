import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";
import {
  isTestOutcome,
  type TestPayment,
  type TestPaymentProvider,
  testOutcomes,
} from "../payments/index.ts";
import { isFinalStatus } from "../payments/provider.ts";

/**
 * The built-in test provider's payment page, served by the shop as a provider serves its
 * own: it shows what is being paid and lets the tester choose the outcome, then calls the
 * shop's webhook (settle) and sends the tester back to the shop's return URL. Registered
 * only when the test provider is the configured one; it never moves money, and every
 * version of the page says it is a test.
 */
export function testPaymentRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
  provider: TestPaymentProvider,
): void {
  const route = routes.on(app);
  const { i18n } = services;

  const show = (
    request: FastifyRequest,
    reply: FastifyReply,
    payment: TestPayment,
    options: { status?: number; notice?: string } = {},
  ) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/test-payment",
      {
        title: t("testPayment.title"),
        payment,
        decided: isFinalStatus(payment.status),
        outcomes: testOutcomes,
        action: i18n.routes.pathFor("testPayment", request.locale, { payment: payment.id }),
        notice: options.notice,
      },
      { noindex: true, status: options.status ?? 200 },
    );
  };

  /** A payment the test provider cannot reach (its database) is a moment's trouble, not the tester's. */
  const unavailable = (request: FastifyRequest, reply: FastifyReply, err: unknown) => {
    request.log.error({ err }, "test payment could not be read or settled");
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/test-payment",
      { title: t("testPayment.title"), notice: t("testPayment.unavailable") },
      { noindex: true, status: 503 },
    );
  };

  route("testPayment", "GET", async (request, reply) => {
    const { payment: id } = request.params as { payment: string };
    try {
      const payment = await provider.details(id);
      if (!payment) return reply.callNotFound();
      return show(request, reply, payment);
    } catch (err) {
      return unavailable(request, reply, err);
    }
  });

  route("testPayment", "POST", async (request, reply) => {
    const { payment: id } = request.params as { payment: string };
    const body = (request.body ?? {}) as Record<string, unknown>;
    try {
      if (!isTestOutcome(body.outcome)) {
        const payment = await provider.details(id);
        if (!payment) return reply.callNotFound();
        return show(request, reply, payment, {
          status: 422,
          notice: i18n.t[request.locale]("testPayment.outcomeLegend"),
        });
      }
      // A payment decided earlier stays so (settle changes nothing): back to the shop either way.
      const payment = await provider.settle(id, body.outcome);
      if (!payment) return reply.callNotFound();
      return reply.redirect(payment.redirectUrl, 303);
    } catch (err) {
      return unavailable(request, reply, err);
    }
  });
}
