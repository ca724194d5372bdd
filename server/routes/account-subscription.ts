import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { keepSignedInPage } from "../accounts/keep-signed-in-page.ts";
import { subscriberOf } from "../cart/cart-subscriber.ts";
import { localMoment } from "../domain/delivery-times.ts";
import { formatPrice } from "../domain/money.ts";
import { isDeliveryCountry } from "../domain/postcode.ts";
import { bytesPerGb } from "../domain/subscriber-storage.ts";
import {
  subscriptionAwaitsPayment,
  subscriptionCharged,
  subscriptionRuns,
} from "../domain/subscription-lifecycle.ts";
import { planById } from "../domain/subscription-plans.ts";
import { subscriptionVatRate } from "../domain/subscription-vat.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { subscriptionCountryForm } from "../forms/subscription-form.ts";
import { shopperShown } from "../http/caching/page-shows.ts";
import { takeFlash, writeFlash } from "../http/cookies/flash-cookie.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { requireAccount } from "../http/security/account-guard.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import { mailDate } from "../mail/order-confirmation.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { subscriptionCancelledMail } from "../mail/subscription-renewal-mails.ts";
import type { PlanChangeOptions, PlanChangeResult } from "../payments/subscription-plan-changes.ts";
import type { Subscription } from "../store/subscription-repository.ts";
import { storageSizeText } from "./subscription.ts";
import { nextChargeText, priceText } from "./subscription-payment.ts";

type SignedIn = NonNullable<Awaited<ReturnType<typeof requireAccount>>>;

/** What a redirect after a change of plan tells the page: codes and numbers, never words. */
type PlanFlash = {
  result: "upgraded" | "upgradedFree" | "downgradeScheduled" | "kept" | "unchanged";
  plan: string;
  amountCents?: number;
  on?: string;
};

/** A change of plan that did not happen: the form comes back with this and the choice kept. */
type PlanProblem = { status: number; message: string; chosen: string | undefined };

/** A change of country refused: the form comes back open, with its errors and what was sent. */
type CountryProblem = { values: FormValues; errors: FieldError[] };

/**
 * "Mijn abonnement": the account's subscription, its plan, status and paid period, the way to
 * its payment page, the free prints left this month, choosing another plan (ADR 0108), and
 * cancelling it (a paid month runs to its end).
 */
export function accountSubscriptionRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
): void {
  const route = routes.on(app);
  const { i18n, subscriptions, planChanges } = services;

  /** The plan-change part of the page: the choices with what each costs and when, or why not. */
  function planChangeView(
    subscription: Subscription,
    { options, pending, blocked }: PlanChangeOptions,
    locale: Locale,
    problem: PlanProblem | undefined,
  ) {
    const t = i18n.t[locale];
    const money = (cents: number) => formatPrice(cents, locale);
    const date = (day: string) => mailDate(day, locale);
    const name = (planId: string) => t(`subscription.plans.${planId}.name`);
    const pendingText =
      pending?.status === "scheduled"
        ? t("subscriptionPlanChange.pendingDowngrade", {
            date: date(pending.startsOn),
            plan: name(pending.to.planId),
            amount: money(
              options.find((o) => o.planId === pending.to.planId)?.nextPeriodCents ?? pending.to.monthlyCents,
            ),
            current: name(subscription.planId),
          })
        : pending?.status === "charging"
          ? t("subscriptionPlanChange.pendingUpgrade", {
              plan: name(pending.to.planId),
              amount: money(pending.amountCents),
              previous: name(pending.from.planId),
            })
          : undefined;
    const chosen =
      problem?.chosen ?? (pending?.status === "scheduled" ? pending.to.planId : subscription.planId);
    return {
      pending: pendingText,
      blocked:
        blocked === "not-running"
          ? t("subscriptionPlanChange.notRunning")
          : blocked === "no-mandate"
            ? t("subscriptionPlanChange.noMandate")
            : undefined,
      action: i18n.routes.pathFor("accountSubscriptionPlan", locale),
      shownOn: localMoment(services.now()).date,
      error: problem?.message,
      choices:
        blocked === "not-running" || blocked === "no-mandate"
          ? []
          : options.map((option) => {
              const values = {
                plan: name(option.planId),
                amount: money(option.amountCents),
                until: date(subscription.paidUntil ?? option.startsOn),
                next: money(option.nextPeriodCents),
                nextStart: date(option.nextPeriodStart),
              };
              const key =
                option.kind === "none"
                  ? "current"
                  : option.kind === "downgrade"
                    ? "downgrade"
                    : option.amountCents > 0
                      ? "upgrade"
                      : "upgradeFree";
              return {
                planId: option.planId,
                label: t(`subscriptionPlanChange.${key}`, values),
                checked: option.planId === chosen,
              };
            }),
    };
  }

  /** "0,4 MB van 250 GB gebruikt": the account's photos against the plan's room. */
  async function storageText(planId: string, ownerId: string, locale: Locale) {
    const plan = planById(planId);
    if (!plan) return undefined;
    const bytes = await services.uploads.bytesByOwner(ownerId);
    // In the largest unit it reaches, to a tenth; a few photos are some kilobytes, never "0 MB".
    const [size, unit] =
      bytes >= bytesPerGb
        ? [bytes / bytesPerGb, "GB"]
        : bytes >= 1024 ** 2
          ? [bytes / 1024 ** 2, "MB"]
          : [Math.ceil(bytes / 1024), "kB"];
    const amount = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(size);
    const t = i18n.t[locale];
    return t("account.subscription.storageUsed", {
      used: `${amount} ${unit}`,
      total: storageSizeText(t, plan.storageGb),
    });
  }

  /** The subscriber's country by name, and the VAT rate its invoices take. */
  const countryWords = (subscription: Subscription, locale: Locale) => ({
    country: i18n.t[locale](`fields.countries.${subscription.country}`),
    rate: subscriptionVatRate(subscription),
  });

  function planNotice(flash: PlanFlash | undefined, locale: Locale): string | undefined {
    if (!flash) return undefined;
    const t = i18n.t[locale];
    return t(`subscriptionPlanChange.${flash.result}`, {
      plan: t(`subscription.plans.${flash.plan}.name`),
      amount: formatPrice(flash.amountCents ?? 0, locale),
      date: flash.on ? mailDate(flash.on, locale) : "",
    });
  }

  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    session: SignedIn,
    problem?: PlanProblem,
    countryProblem?: CountryProblem,
  ) {
    const locale = request.locale;
    const t = i18n.t[locale];
    const subscription = await subscriptions.forAccount(session.account.id);
    // Ended or ending, a plan no longer changes, and a waiting downgrade will not come.
    const planChoices =
      subscription && subscriptionRuns(subscription.status) && subscription.status !== "cancelling"
        ? await planChanges.options(subscription)
        : undefined;
    // What is left of this period's free prints, as the cart counts them.
    const allowance = (await subscriberOf(services, subscription))?.allowance;
    const flash = takeFlash<string>(request, reply, "account-subscription");
    const planFlash = takeFlash<PlanFlash>(request, reply, "account-subscription-plan");
    const cancellable =
      subscription &&
      (subscriptionCharged(subscription.status) || subscriptionAwaitsPayment(subscription.status));
    return reply.page(
      "pages/account-subscription",
      {
        title: t("account.subscription.title"),
        notice:
          flash === "cancelled"
            ? t("account.subscription.cancelled")
            : flash === "country-saved" && subscription
              ? t("account.subscription.countrySaved", countryWords(subscription, locale))
              : planNotice(planFlash, locale),
        subscription: subscription && {
          plan: t(`subscription.plans.${subscription.planId}.name`),
          price: priceText(t, subscription, locale),
          status: t(`subscriptionPayment.status.${subscription.status}`),
          // Where the subscriber said they live: the VAT of every invoice follows it (ADR 0110).
          country: t("account.subscription.countryValue", countryWords(subscription, locale)),
          countryForm: {
            form: subscriptionCountryForm,
            action: i18n.routes.pathFor("accountSubscriptionCountry", locale),
            values: countryProblem?.values ?? { country: subscription.country },
            errors: countryProblem?.errors ?? [],
          },
          paidUntil: subscription.paidUntil ? mailDate(subscription.paidUntil, locale) : undefined,
          storage:
            subscriptionRuns(subscription.status) || subscription.status === "suspended"
              ? await storageText(subscription.planId, session.account.ownerId, locale)
              : undefined,
          // "Volgende afschrijving: …", as the status page says it (a waiting downgrade's price).
          nextCharge: await nextChargeText(services, subscription, locale, planChoices?.paidPeriods),
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
          planChange: planChoices && planChangeView(subscription, planChoices, locale, problem),
          cancel: cancellable
            ? subscription.paidUntil
              ? t("account.subscription.cancelHint", { date: mailDate(subscription.paidUntil, locale) })
              : t("account.subscription.cancelUnpaidHint")
            : undefined,
        },
      },
      {
        noindex: true,
        keyedByData: true,
        ...(problem ? { status: problem.status } : countryProblem ? { status: 422 } : {}),
      },
    );
  }

  route("accountSubscription", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    // The storage used is the account's photos: their revision is part of what the page shows.
    await keepSignedInPage(
      services,
      request,
      reply,
      session,
      await shopperShown(services.projects, session.account.ownerId),
    );
    return show(request, reply, session);
  });

  route("accountSubscriptionPlan", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const t = i18n.t[request.locale];
    const body = (request.body ?? {}) as Record<string, unknown>;
    const planId = typeof body.plan === "string" ? body.plan : undefined;
    const shownOn = typeof body.shownOn === "string" ? body.shownOn : "";
    const subscription = await subscriptions.forAccount(session.account.id);
    if (!subscription) return reply.redirect(i18n.routes.pathFor("accountSubscription", request.locale), 303);
    const result: PlanChangeResult = planId
      ? await planChanges.change(subscription.id, planId, shownOn)
      : { kind: "unknown-plan" };
    const problem = (status: number, key: string): PlanProblem => ({
      status,
      message: t(`subscriptionPlanChange.${key}`),
      chosen: planId,
    });
    switch (result.kind) {
      case "unknown-plan":
        return show(request, reply, session, { ...problem(400, "errorChoose"), chosen: undefined });
      case "stale":
        return show(request, reply, session, problem(409, "errorStale"));
      case "not-charged":
        return show(request, reply, session, problem(503, "errorNotCharged"));
      case "blocked":
        return show(
          request,
          reply,
          session,
          problem(
            409,
            result.reason === "charging"
              ? "errorCharging"
              : result.reason === "no-mandate"
                ? "noMandate"
                : "notRunning",
          ),
        );
      case "upgraded":
        writeFlash(reply, "account-subscription-plan", {
          result: result.change.amountCents > 0 ? "upgraded" : "upgradedFree",
          plan: result.change.to.planId,
          amountCents: result.change.amountCents,
        } satisfies PlanFlash);
        break;
      case "downgrade-scheduled":
        writeFlash(reply, "account-subscription-plan", {
          result: "downgradeScheduled",
          plan: result.change.to.planId,
          on: result.change.startsOn,
        } satisfies PlanFlash);
        break;
      case "kept":
      case "unchanged":
        writeFlash(reply, "account-subscription-plan", {
          result: result.kind,
          plan: subscription.planId,
        } satisfies PlanFlash);
        break;
    }
    return reply.redirect(i18n.routes.pathFor("accountSubscription", request.locale), 303);
  });

  route("accountSubscriptionCountry", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const subscription = await subscriptions.forAccount(session.account.id);
    if (!subscription) return reply.redirect(i18n.routes.pathFor("accountSubscription", request.locale), 303);
    const values = subscriptionCountryForm.values(request.body);
    const errors = await subscriptionCountryForm.validate(
      values,
      i18n.t[request.locale],
      undefined,
      request.locale,
    );
    const country = values.country;
    if (errors.length > 0 || !isDeliveryCountry(country))
      return show(request, reply, session, undefined, { values, errors });
    await subscriptions.changeCountry(subscription.id, country);
    writeFlash(reply, "account-subscription", "country-saved");
    return reply.redirect(i18n.routes.pathFor("accountSubscription", request.locale), 303);
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
