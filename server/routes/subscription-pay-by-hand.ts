import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { formatPrice } from "../domain/money.ts";
import { overRateLimit } from "../http/limits/form-rate-limit.ts";
import { limitKey } from "../http/limits/shared-counters.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import type { Services } from "../http/services.ts";
import { mailDate } from "../mail/order-confirmation.ts";
import { type ByHandLink, byHandLinkDays } from "../payments/by-hand-payments.ts";
import { isFinalStatus } from "../payments/provider.ts";

/**
 * The failed or suspended mail's link (ADR 0106): `/abonnement/betalen/<token>` shows the
 * open period, its amount and one button "Nu betalen", which goes (303) to the payment
 * provider; the provider sends the subscriber back to the same address, which then says
 * what became of the payment. The token proves the mailbox, so the page needs no signing in
 * and tells nothing to anyone without the mail; opening it changes nothing (mail scanners
 * open links too). Personal and short-lived, it is never kept (no-store, as checkout pages).
 */
export function subscriptionPayByHandRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
): void {
  const route = routes.on(app);
  const { i18n, byHandPayments, config } = services;
  // Per client address, as the sign-ups' posts: each press may start a payment at the provider.
  const payLimit = app.createRateLimit({
    max: config.signupRateLimit * 5,
    timeWindow: 10 * 60_000,
    keyGenerator: limitKey("by-hand-payments"),
  });

  const linkProblem = (request: FastifyRequest, reply: FastifyReply, status: 404 | 410) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/link-problem",
      {
        title: t("subscriptionRenewal.byHand.invalidTitle"),
        heading: t("subscriptionRenewal.byHand.invalidTitle"),
        message: t("subscriptionRenewal.byHand.invalid", { days: byHandLinkDays }),
        action: {
          href: i18n.routes.pathFor("customerService", request.locale),
          text: t("subscriptionRenewal.byHand.toCustomerService"),
        },
      },
      { status, noindex: true },
    );
  };

  /** What the link's page says of the latest payment started on it, if anything. */
  const outcomeKey = (link: Extract<ByHandLink, { subscription: unknown }>) => {
    if (link.state === "paid") return "paid";
    if (link.state === "closed") return "closed";
    if (!link.latest) return undefined;
    if (!isFinalStatus(link.latest.status)) return "pending";
    return "failed";
  };

  const show = (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    link: ByHandLink,
    options: { notice?: string; status?: number } = {},
  ) => {
    if (link.state === "unknown") return linkProblem(request, reply, 404);
    if (link.state === "expired") return linkProblem(request, reply, 410);
    const locale = request.locale;
    const t = i18n.t[locale];
    const { subscription, charge } = link;
    const plan = t(`subscription.plans.${subscription.planId}.name`);
    const outcome = outcomeKey(link);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/subscription-pay-by-hand",
      {
        title: t("subscriptionRenewal.byHand.title"),
        byHand: {
          heading: t("subscriptionRenewal.byHand.heading", { plan }),
          summary: [
            {
              label: t("subscriptionRenewal.byHand.period"),
              value: t("subscriptionRenewal.byHand.periodValue", {
                from: mailDate(charge.periodStart, locale),
                until: mailDate(charge.periodEnd, locale),
              }),
            },
            { label: t("subscriptionRenewal.byHand.amount"), value: formatPrice(charge.amountCents, locale) },
            { label: t("subscriptionRenewal.byHand.subscription"), value: subscription.id },
            {
              label: t("subscriptionRenewal.byHand.status"),
              value: t(`subscriptionPayment.status.${subscription.status}`),
            },
          ],
          ...(outcome ? { outcome: t(`subscriptionRenewal.byHand.${outcome}`) } : {}),
          ...(options.notice ? { notice: options.notice } : {}),
          // Payable while the period is open and no payment is under way (its page is the provider's).
          ...(link.state === "open" && outcome !== "pending"
            ? { action: i18n.routes.pathFor("subscriptionPayByHand", locale, { token }) }
            : {}),
        },
      },
      // The token is in the address: neither it nor the page goes to a search engine or a referrer.
      { noindex: true, status: options.status ?? 200 },
    );
  };

  route("subscriptionPayByHand", "GET", async (request, reply) => {
    const { token } = request.params as { token: string };
    return show(request, reply, token, await byHandPayments.link(token));
  });

  route("subscriptionPayByHand", "POST", async (request, reply) => {
    const { token } = request.params as { token: string };
    const t = i18n.t[request.locale];
    if (await overRateLimit(payLimit, request, reply, "by-hand payment")) {
      return show(request, reply, token, await byHandPayments.link(token), {
        notice: t("subscriptionRenewal.byHand.rateLimited"),
        status: 429,
      });
    }
    const started = await byHandPayments.start(token, { origin: originOf(request, services) });
    if (started.kind === "started") return reply.redirect(started.checkoutUrl, 303);
    if (started.kind === "not-payable") {
      // Paid meanwhile, or nothing open any more: the page says so, nothing was started.
      const status = started.link.state === "unknown" ? 404 : started.link.state === "expired" ? 410 : 409;
      return show(request, reply, token, started.link, { status });
    }
    return show(request, reply, token, await byHandPayments.link(token), {
      notice: t("subscriptionRenewal.byHand.unavailable"),
      status: 503,
    });
  });
}
