import type { FastifyInstance } from "fastify";
import { keepSignedInPage } from "../accounts/keep-signed-in-page.ts";
import { cartSubscriber } from "../cart/cart-subscriber.ts";
import { localMoment } from "../domain/delivery-times.ts";
import {
  subscriptionAwaitsPayment,
  subscriptionCharged,
  subscriptionRuns,
} from "../domain/subscription-lifecycle.ts";
import { takeFlash, writeFlash } from "../http/cookies/flash-cookie.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { requireAccount } from "../http/security/account-guard.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import { mailDate } from "../mail/order-confirmation.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { subscriptionCancelledMail } from "../mail/subscription-renewal-mails.ts";
import { priceText } from "./subscription-payment.ts";

/**
 * "Mijn abonnement": the account's subscription, its plan, status and paid period, the way to
 * its payment page, the free prints left this month, and cancelling it (a paid month runs
 * to its end).
 */
export function accountSubscriptionRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
): void {
  const route = routes.on(app);
  const { i18n, subscriptions } = services;

  route("accountSubscription", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    await keepSignedInPage(services, request, reply, session);
    const locale = request.locale;
    const t = i18n.t[locale];
    const subscription = await subscriptions.forAccount(session.account.id);
    // What is left of this period's free prints, as the cart counts them.
    const allowance = subscription && (await cartSubscriber(services, session.account.id))?.allowance;
    const flash = takeFlash<string>(request, reply, "account-subscription");
    const cancellable =
      subscription &&
      (subscriptionCharged(subscription.status) || subscriptionAwaitsPayment(subscription.status));
    return reply.page(
      "pages/account-subscription",
      {
        title: t("account.subscription.title"),
        notice: flash === "cancelled" ? t("account.subscription.cancelled") : undefined,
        subscription: subscription && {
          plan: t(`subscription.plans.${subscription.planId}.name`),
          price: priceText(t, subscription, locale),
          status: t(`subscriptionPayment.status.${subscription.status}`),
          paidUntil: subscription.paidUntil ? mailDate(subscription.paidUntil, locale) : undefined,
          printsLeft:
            allowance && allowance.printsPerMonth > 0
              ? t("cart.subscriber.printsLeft", {
                  left: allowance.freePrintsLeft,
                  total: allowance.printsPerMonth,
                })
              : undefined,
          renews:
            (Boolean(subscription.mandateId) &&
              subscriptionRuns(subscription.status) &&
              subscription.status !== "cancelling") ||
            subscriptionAwaitsPayment(subscription.status),
          statusHref: i18n.routes.pathFor("subscriptionStatus", locale, { subscription: subscription.id }),
          cancel: cancellable
            ? subscription.paidUntil
              ? t("account.subscription.cancelHint", { date: mailDate(subscription.paidUntil, locale) })
              : t("account.subscription.cancelUnpaidHint")
            : undefined,
        },
      },
      { noindex: true, keyedByData: true },
    );
  });

  route("accountSubscription", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const subscription = await subscriptions.forAccount(session.account.id);
    if (subscription) {
      // Notice: a paid period runs to its end (cancelling), an unpaid one ends now; one mail says so.
      const at = services.now();
      const t = i18n.t[subscription.locale as Locale];
      const result = await subscriptions.applyEvent(subscription.id, { type: "notice_given" }, at, {
        afterChange: async (trx, changed) => {
          await enqueueMail(
            trx,
            subscriptionCancelledMail(t, changed, at.toISOString(), changed.endsOn ?? localMoment(at).date),
            at,
          );
        },
      });
      if (result.kind === "changed") services.mailQueued();
      if (result.kind === "changed") writeFlash(reply, "account-subscription", "cancelled");
    }
    return reply.redirect(i18n.routes.pathFor("accountSubscription", request.locale), 303);
  });
}
