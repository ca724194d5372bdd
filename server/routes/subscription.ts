import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { formatPrice } from "../domain/money.ts";
import { hashPassword } from "../domain/password-hash.ts";
import { offerEndsAt, type Plan, planById, plans, recommendedPlanId } from "../domain/subscription-plans.ts";
import { tabSlug } from "../domain/tab-slug.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { subscriptionForm } from "../forms/subscription-form.ts";
import { overRateLimit } from "../http/form-rate-limit.ts";
import { type LiveRoutes, localizedRoute } from "../http/localized-routes.ts";
import { isAjax } from "../http/pages.ts";
import type { Services } from "../http/services.ts";
import { ensureShopperId, readShopperId } from "../http/shopper-cookie.ts";
import { type Locale, perLocale } from "../i18n/locales.ts";
import { lookup, type Translate } from "../i18n/translate.ts";
import { takeRemovedNotice, uploadViews } from "./uploads.ts";

/** The explanations a modal can show, by key; each one's address is its slug in the shopper's language. */
export const infoTopics = ["cancel", "storage"] as const;
type InfoTopic = (typeof infoTopics)[number];

interface SignupState {
  values?: FormValues;
  errors?: FieldError[];
  /** Too many sign-ups from this client: said above the form, everything typed kept. */
  notice?: "rateLimited";
}

/**
 * The subscription page: plans, the shopper's uploads and questions in tabs, and the
 * sign-up form. Payment is not part of the shop yet, and the page says so.
 */
export function subscriptionRoutes(app: FastifyInstance, services: Services, live: LiveRoutes): void {
  const { i18n, subscriptions, uploads, projects, config } = services;
  // Per client address, in this process; every post counts. A valid sign-up hashes its
  // password with scrypt (N = 2^15, tens of milliseconds of CPU), which must not be
  // something one client can ask for without end.
  const signupLimit = app.createRateLimit({ max: config.signupRateLimit, timeWindow: 10 * 60_000 });
  const money = (cents: number, locale: Locale) => formatPrice(cents, locale);

  const topicSlug = (topic: InfoTopic, locale: Locale) =>
    i18n.t[locale](`subscription.info.topics.${topic}.slug`);
  const topicBySlug = perLocale((l) => new Map(infoTopics.map((topic) => [topicSlug(topic, l), topic])));
  const infoHref = (topic: InfoTopic, locale: Locale) =>
    i18n.routes.pathFor("subscriptionInfo", locale, { topic: topicSlug(topic, locale) });

  const planView = (plan: Plan, t: Translate, locale: Locale, endsAt: Date) => {
    const size =
      plan.storageGb >= 1000
        ? t("subscription.terabytes", { count: plan.storageGb / 1000 })
        : t("subscription.gigabytes", { count: plan.storageGb });
    return {
      id: plan.id,
      name: t(`subscription.plans.${plan.id}.name`),
      summary: t(`subscription.plans.${plan.id}.summary`),
      price: t("subscription.perMonth", { price: money(plan.monthlyCents, locale) }),
      priceShort: money(plan.monthlyCents, locale),
      recommended: plan.id === recommendedPlanId,
      offer: plan.offer && {
        text: t("subscription.offer", {
          count: plan.offer.months,
          price: money(plan.offer.monthlyCents, locale),
        }),
        endsAt,
      },
      storage: t("subscription.features.storage", { size }),
      storageShort: size,
      prints:
        plan.printsPerMonth > 0
          ? t("subscription.features.prints", { count: plan.printsPerMonth })
          : t("subscription.features.noPrints"),
      printsShort: String(plan.printsPerMonth),
      discount:
        plan.photoBookDiscount > 0
          ? t("subscription.features.discount", { percent: plan.photoBookDiscount })
          : t("subscription.features.noDiscount"),
      discountShort: `${plan.photoBookDiscount}%`,
      chooseHref: `${i18n.routes.pathFor("subscription", locale)}?${new URLSearchParams({
        [t("subscription.planQuery")]: plan.id,
      })}#${t("subscription.signupAnchor")}`,
      choose: t("subscription.choose", { plan: t(`subscription.plans.${plan.id}.name`) }),
    };
  };

  const signupData = (request: FastifyRequest, state: SignupState) => {
    const query = request.query as Record<string, unknown>;
    const wanted = query[i18n.t[request.locale]("subscription.planQuery")];
    const plan = planById(wanted)?.id ?? recommendedPlanId;
    return {
      form: subscriptionForm,
      values: state.values ?? { plan },
      errors: state.errors ?? [],
      notice: state.notice,
    };
  };

  const showPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    state: SignupState = {},
    status = 200,
  ) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const owner = readShopperId(request);
    const shopperUploads = owner ? await uploads.listByOwner(owner) : [];
    // Photos in a book that was ordered stay (production needs them): those have no remove button.
    const ordered = await projects.ordered(shopperUploads.flatMap((u) => (u.projectId ? [u.projectId] : [])));
    const labels = {
      plans: t("subscription.tabs.plans"),
      uploads: t("subscription.tabs.uploads"),
      questions: t("subscription.tabs.questions"),
    };
    reply.header("cache-control", "private, no-store");
    // A function: when the page cache has the page, none of this is worked out.
    return reply.page(
      "pages/subscription",
      () => ({
        title: t("subscription.title"),
        description: t("subscription.description"),
        plans: ((endsAt) => plans.map((plan) => planView(plan, t, locale, endsAt)))(offerEndsAt(new Date())),
        tabs: {
          id: "subscription-tabs",
          label: t("subscription.tabsLabel"),
          sections: (["plans", "uploads", "questions"] as const).map((key) => ({
            label: labels[key],
            id: tabSlug(labels[key]),
          })),
        },
        uploadsTab: tabSlug(labels.uploads),
        signupAnchor: t("subscription.signupAnchor"),
        uploads: uploadViews(shopperUploads, (l) => i18n.routes.pathFor("editorProject", locale, l)).map(
          (view) => ({ ...view, removable: !view.projectId || !ordered.has(view.projectId) }),
        ),
        removed: takeRemovedNotice(request, reply, t),
        signup: signupData(request, state),
        info: Object.fromEntries(infoTopics.map((topic) => [topic, infoHref(topic, locale)])),
      }),
      {
        status,
        noindex: status !== 200,
        fragment: "partials/subscription-signup",
        // A shopper without photos sees what everyone without photos sees: that copy is shared.
        cacheable: status === 200 && !owner,
      },
    );
  };

  localizedRoute(app, i18n.routes, live, "subscription", "GET", (request, reply) => showPage(request, reply));

  const emailTaken = async (values: FormValues, t: Translate): Promise<true | string> =>
    (await subscriptions.emailTaken(values.email ?? "")) ? t("subscription.emailTaken") : true;

  // The sign-up form posts here; after a refused post the browser shows this address, and
  // the language switcher offers it in the other language: a visit lands on the form.
  localizedRoute(app, i18n.routes, live, "subscriptionSignup", "GET", async (request, reply) =>
    reply.redirect(
      `${i18n.routes.pathFor("subscription", request.locale)}#${i18n.t[request.locale]("subscription.signupAnchor")}`,
      303,
    ),
  );

  localizedRoute(app, i18n.routes, live, "subscriptionSignup", "POST", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const values = subscriptionForm.values(request.body);
    if (await overRateLimit(signupLimit, request, reply, "subscription sign-up")) {
      return showPage(request, reply, { values, notice: "rateLimited" }, 429);
    }
    const errors = await subscriptionForm.validate(
      values,
      t,
      (field, all) => (field === "email" ? emailTaken(all, t) : Promise.resolve(true)),
      request.locale,
    );
    const plan = planById(values.plan);
    if (errors.length > 0 || !plan) return showPage(request, reply, { values, errors }, 422);

    const owner = ensureShopperId(request, reply);
    const name = (values.name ?? "").trim();
    const email = (values.email ?? "").trim();
    const planName = t(`subscription.plans.${plan.id}.name`);
    const created = await subscriptions.create(
      {
        ownerId: owner,
        name,
        email,
        planId: plan.id,
        monthlyCents: plan.monthlyCents,
        offer: plan.offer,
        passwordHash: await hashPassword(values.password ?? ""),
        locale,
      },
      {
        kind: "subscription-welcome",
        locale,
        to: email,
        subject: t("subscription.mail.subject"),
        text: t("subscription.mail.body", {
          name,
          plan: planName,
          price: money(plan.offer?.monthlyCents ?? plan.monthlyCents, locale),
        }),
      },
    );
    if (!created) {
      // Another sign-up with this address got there first.
      const taken = [{ field: "email", message: t("subscription.emailTaken") }];
      return showPage(request, reply, { values, errors: taken }, 422);
    }
    if (!isAjax(request)) {
      return reply.redirect(i18n.routes.pathFor("subscriptionWelcome", locale), 303);
    }
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "partials/subscription-welcome",
      { title: t("subscription.welcome.title"), welcome: welcomeView(created, t, locale) },
      { fragment: "partials/subscription-welcome" },
    );
  });

  const welcomeView = (
    subscription: {
      name: string;
      email: string;
      planId: string;
      monthlyCents: number;
      offer?: Plan["offer"];
    },
    t: Translate,
    locale: Locale,
  ) => ({
    heading: t("subscription.welcome.heading", { name: subscription.name }),
    message: t("subscription.welcome.message", {
      plan: t(`subscription.plans.${subscription.planId}.name`),
      email: subscription.email,
    }),
    price: subscription.offer
      ? t("subscription.welcome.offerPrice", {
          count: subscription.offer.months,
          price: money(subscription.offer.monthlyCents, locale),
          regular: money(subscription.monthlyCents, locale),
        })
      : t("subscription.welcome.price", { price: money(subscription.monthlyCents, locale) }),
  });

  localizedRoute(app, i18n.routes, live, "subscriptionWelcome", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const owner = readShopperId(request);
    const subscription = owner ? await subscriptions.latestForOwner(owner) : undefined;
    if (!subscription) return reply.redirect(i18n.routes.pathFor("subscription", locale), 303);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/subscription-welcome",
      { title: t("subscription.welcome.title"), welcome: welcomeView(subscription, t, locale) },
      { noindex: true },
    );
  });

  localizedRoute(app, i18n.routes, live, "subscriptionInfo", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const { topic: slug } = request.params as { topic: string };
    const topic = topicBySlug[locale].get(slug);
    if (!topic) return reply.callNotFound();
    const key = `subscription.info.topics.${topic}`;
    // However many paragraphs the translators wrote, in their order.
    const group = lookup(i18n.messages[locale], `${key}.paragraphs`);
    const paragraphs =
      group && typeof group === "object" ? Object.keys(group).map((p) => t(`${key}.paragraphs.${p}`)) : [];
    return reply.page(
      "pages/subscription-info",
      { title: t(`${key}.title`), heading: t(`${key}.title`), paragraphs },
      {
        fragment: "partials/subscription-info",
        alternateParams: perLocale((l) => ({ topic: topicSlug(topic, l) })),
        cacheable: true,
      },
    );
  });

  localizedRoute(
    app,
    i18n.routes,
    live,
    "subscriptionEmailCheck",
    "GET",
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const email = typeof query.email === "string" ? query.email.slice(0, 254) : "";
      reply.header("cache-control", "no-store");
      const answer = email ? await emailTaken({ email }, i18n.t[request.locale]) : true;
      return reply.type("application/json").send(JSON.stringify(answer));
    },
    { rateLimit: { max: 60, timeWindow: "1 minute" } },
  );
}
