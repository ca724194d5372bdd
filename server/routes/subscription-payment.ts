import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PaymentState } from "../../islands/payment-status/contract.ts";
import { signInBrowser } from "../accounts/browser-session.ts";
import { formatPrice } from "../domain/money.ts";
import {
  periodCents,
  type SubscriptionStatus,
  subscriptionAwaitsPayment,
} from "../domain/subscription-lifecycle.ts";
import { addDays } from "../domain/working-days.ts";
import { readShopperId } from "../http/cookies/shopper-cookie.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import { mailDate } from "../mail/order-confirmation.ts";
import type { PaymentStatus } from "../payments/provider.ts";
import { planForNextPeriod } from "../payments/subscription-plan-changes.ts";
import { isRandomId } from "../store/random-id.ts";
import { signupLinkHours } from "../store/signup-repository.ts";
import { subscriptionChargeRepository } from "../store/subscription-charge-repository.ts";
import { firstPeriodCents, type Subscription } from "../store/subscription-repository.ts";
import { chosenMethod, methodsFor, payAndGo, paymentProgress, takePaymentNotice } from "./paying.ts";

/** What the subscription costs a month, with its offer while there is one. */
export function priceText(
  t: Translate,
  subscription: Pick<Subscription, "monthlyCents" | "offer">,
  locale: Locale,
): string {
  const { offer, monthlyCents } = subscription;
  return offer
    ? t("subscription.welcome.offerPrice", {
        count: offer.months,
        price: formatPrice(offer.monthlyCents, locale),
        regular: formatPrice(monthlyCents, locale),
      })
    : t("subscription.welcome.price", { price: formatPrice(monthlyCents, locale) });
}

/** Where a subscription stands with paying its first period. */
/**
 * "Volgende afschrijving: …": the day after the paid period and what that period costs (the
 * offer's price for its months), for a subscription that is charged on its mandate.
 */
export async function nextChargeText(
  services: Services,
  subscription: Subscription,
  locale: Locale,
  /** The subscription's paid periods, when the page has read them already. */
  paidPeriods?: number,
): Promise<string | undefined> {
  if (subscription.status !== "active" || !subscription.mandateId || !subscription.paidUntil)
    return undefined;
  const paid =
    paidPeriods ?? (await subscriptionChargeRepository(services.database.db).paidPeriods(subscription.id));
  // A downgrade waiting for the next period sets its price (ADR 0108).
  const plan = await planForNextPeriod(services.database.db, subscription);
  return services.i18n.t[locale]("subscriptionRenewal.page.nextCharge", {
    date: mailDate(addDays(subscription.paidUntil, 1), locale),
    amount: formatPrice(periodCents(plan, paid + 2), locale),
  });
}

/** Statuses of a running (or ended) subscription whose page says its own sentence, not the first payment's. */
const standingKeys: ReadonlySet<SubscriptionStatus> = new Set([
  "past_due",
  "suspended",
  "cancelling",
  "withdrawn",
]);

export function subscriptionPaymentState(
  subscription: { status: SubscriptionStatus; paidUntil: string | undefined },
  payment: { status: PaymentStatus } | undefined,
): PaymentState {
  const { status } = subscription;
  if (status === "active") return "paid";
  if (status === "expired") return "expired";
  // Cancelled after paying, it runs to the end of its paid month: the payment stands.
  if (status === "cancelled") return subscription.paidUntil ? "paid" : "cancelled";
  return paymentProgress(payment);
}

/**
 * The sign-up link's page and the subscription's own page:
 * - the link (`/abonnement/bevestigen/<token>`) shows what was signed up for; its button
 *   confirms the address, which makes the subscription, and goes on to pay the first period.
 *   Opening the link changes nothing (mail scanners open links too); only the button does.
 * - the subscription's page (`/abonnement/status/<id>`) is where the provider sends the
 *   subscriber back. Like the order page it asks the provider before it says anything about
 *   paying, offers to pay again while the subscription waits, and is shown only to the
 *   browser that confirmed it (its shopper cookie); to anyone else it does not exist.
 */
export function subscriptionPaymentRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
): void {
  const route = routes.on(app);
  const { i18n, subscriptions, subscriptionPayments, signups } = services;
  const statusPath = (locale: Locale, id: string) =>
    i18n.routes.pathFor("subscriptionStatus", locale, { subscription: id });

  const signupHref = (request: FastifyRequest) =>
    `${i18n.routes.pathFor("subscription", request.locale)}#${i18n.t[request.locale]("subscription.signupAnchor")}`;

  const linkProblem = (request: FastifyRequest, reply: FastifyReply, status: 404 | 410) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/link-problem",
      {
        title: t("subscription.confirm.invalidTitle"),
        heading: t("subscription.confirm.invalidTitle"),
        message: t("subscription.confirm.invalid", { hours: signupLinkHours }),
        action: { href: signupHref(request), text: t("subscription.confirm.signupAgain") },
      },
      { status, noindex: true },
    );
  };

  const alreadyActive = (request: FastifyRequest, reply: FastifyReply, subscription: Subscription) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/link-problem",
      {
        title: t("subscription.confirm.alreadyActiveTitle"),
        heading: t("subscription.confirm.alreadyActiveTitle"),
        message: t("subscription.confirm.alreadyActive", { email: subscription.email }),
        action: {
          href: i18n.routes.pathFor("subscription", request.locale),
          text: t("subscription.welcome.toSubscription"),
        },
      },
      { noindex: true },
    );
  };

  /**
   * The subscription by the id in the address, for the browser that confirmed it (its shopper
   * cookie) or the account it belongs to, signed in; else undefined.
   */
  const ownSubscription = async (request: FastifyRequest, id: string | undefined) => {
    if (!id || !isRandomId(id)) return undefined;
    const subscription = await subscriptions.get(id);
    if (!subscription) return undefined;
    const owner = readShopperId(request);
    if (owner && subscription.ownerId === owner) return subscription;
    const session = await request.signedIn();
    return session && subscription.accountId === session.account.id ? subscription : undefined;
  };

  const pay = (request: FastifyRequest, reply: FastifyReply, subscription: Subscription, method?: string) =>
    payAndGo(
      services,
      request,
      reply,
      (options) => subscriptionPayments.start(subscription.id, options),
      statusPath(request.locale, subscription.id),
      method,
    );

  route("subscriptionConfirm", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const { token } = request.params as { token: string };
    const link = await signups.link(token, services.now());
    if (link.state === "unknown") return linkProblem(request, reply, 404);
    if (link.state === "used") {
      // The browser that used it goes on to its subscription; to anyone else it is spent.
      const own = await ownSubscription(request, link.subscriptionId);
      return own ? reply.redirect(statusPath(locale, own.id), 303) : linkProblem(request, reply, 410);
    }
    if (link.state === "expired") return linkProblem(request, reply, 410);
    const { signup } = link;
    // The account links of the same table lead to their own page.
    if (!signup.plan) return linkProblem(request, reply, 404);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/subscription-confirm",
      {
        title: t("subscription.confirm.title"),
        confirm: {
          action: i18n.routes.pathFor("subscriptionConfirm", locale, { token }),
          summary: t("subscription.confirm.summary", {
            plan: t(`subscription.plans.${signup.plan.planId}.name`),
            name: signup.name,
            email: signup.email,
          }),
          firstPeriod: t("subscription.confirm.firstPeriod", {
            price: formatPrice(firstPeriodCents(signup.plan), locale),
          }),
        },
      },
      // The token is in the address: neither it nor the page goes to a search engine or a referrer.
      { noindex: true },
    );
  });

  route("subscriptionConfirm", "POST", async (request, reply) => {
    const { token } = request.params as { token: string };
    const result = await signups.confirm(token, services.now());
    switch (result.kind) {
      case "unknown":
        return linkProblem(request, reply, 404);
      case "expired":
        return linkProblem(request, reply, 410);
      case "already-active":
        return alreadyActive(request, reply, result.subscription);
      case "used": {
        // A second click, or a reload of the post: the same subscription, at most one open payment.
        const own = await ownSubscription(request, result.subscriptionId);
        return own ? pay(request, reply, own) : linkProblem(request, reply, 410);
      }
      case "confirmed": {
        if (!result.subscription) return linkProblem(request, reply, 404);
        // The link proved the address: this browser is signed in to its account.
        await signInBrowser(services, request, reply, result.account);
        return pay(request, reply, result.subscription);
      }
    }
  });

  route("subscriptionStatus", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const { subscription: id } = request.params as { subscription: string };
    let subscription = await ownSubscription(request, id);
    if (!subscription) return reply.callNotFound();
    const notice = takePaymentNotice(request, reply);
    let payment: { status: PaymentStatus } | undefined;
    try {
      payment = await subscriptionPayments.latest(subscription.id);
    } catch (err) {
      request.log.warn({ err, subscription: subscription.id }, "payment status could not be fetched");
    }
    // Asking may just have applied the payment: the status shown is the one after it.
    if (payment) subscription = (await subscriptions.get(subscription.id)) ?? subscription;
    const amountCents = firstPeriodCents(subscription);
    const awaiting = subscriptionAwaitsPayment(subscription.status);
    const methods = awaiting ? await methodsFor(services, request, amountCents, locale) : [];
    const planName = t(`subscription.plans.${subscription.planId}.name`);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/subscription-status",
      {
        title: t("subscriptionPayment.title"),
        heading: t("subscriptionPayment.heading", { plan: planName }),
        price: priceText(t, subscription, locale),
        expired: subscription.status === "expired",
        // Waiting for its first payment, it will renew: that payment makes the mandate.
        renews: Boolean(subscription.mandateId) || subscriptionAwaitsPayment(subscription.status),
        nextCharge: await nextChargeText(services, subscription, locale),
        paymentStatus: {
          url: statusPath(locale, subscription.id),
          texts: "subscriptionPayment",
          state: subscriptionPaymentState(subscription, payment),
          orderStatus: subscription.status,
          amountCents,
          email: subscription.email,
          ...(notice ? { notice } : {}),
          methods,
          ...(subscription.paidUntil
            ? {
                // Renewed, the paid period is no longer the first month.
                paidNote: t(
                  subscription.paidFrom && subscription.paidFrom !== subscription.startedOn
                    ? "subscriptionRenewal.page.paidUntil"
                    : "subscriptionPayment.paidUntil",
                  { date: mailDate(subscription.paidUntil, locale) },
                ),
              }
            : {}),
          ...(standingKeys.has(subscription.status)
            ? {
                message: t(`subscriptionRenewal.page.${subscription.status}`, {
                  date: mailDate(subscription.endsOn ?? subscription.paidUntil ?? "", locale),
                }),
              }
            : {}),
        },
      },
      { noindex: true, fragment: "partials/payment-status" },
    );
  });

  // "Betaal opnieuw": a new payment for the first period (or its open one), with the chosen method.
  route("subscriptionStatus", "POST", async (request, reply) => {
    const { subscription: id } = request.params as { subscription: string };
    const subscription = await ownSubscription(request, id);
    if (!subscription) return reply.callNotFound();
    const method = await chosenMethod(services, request, firstPeriodCents(subscription));
    return pay(request, reply, subscription, method);
  });
}
