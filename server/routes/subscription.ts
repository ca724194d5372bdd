import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { countryOfLocale } from "../domain/delivery-address.ts";
import { formatPrice } from "../domain/money.ts";
import { hashPassword } from "../domain/password-hash.ts";
import { isDeliveryCountry } from "../domain/postcode.ts";
import { offerEndsAt, type Plan, planById, plans, recommendedPlanId } from "../domain/subscription-plans.ts";
import { tabSlug } from "../domain/tab-slug.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { subscriptionForm, subscriptionPlanForm } from "../forms/subscription-form.ts";
import {
  accountShown,
  clockShown,
  headerCountShown,
  pageShows,
  shopperShown,
} from "../http/caching/page-shows.ts";
import { hasFlash } from "../http/cookies/flash-cookie.ts";
import { readShopperId, setShopperId } from "../http/cookies/shopper-cookie.ts";
import { overRateLimit } from "../http/limits/form-rate-limit.ts";
import { limitKey } from "../http/limits/shared-counters.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import { isAjax } from "../http/rendering/pages.ts";
import type { Services } from "../http/services.ts";
import { type Locale, locales, perLocale } from "../i18n/locales.ts";
import { lookup, type Translate } from "../i18n/translate.ts";
import { alreadySubscribedMail, subscriptionConfirmMail } from "../mail/subscription-mails.ts";
import { randomId } from "../store/random-id.ts";
import type { Session } from "../store/session-repository.ts";
import { signupLinkHours } from "../store/signup-repository.ts";
import { firstPeriodCents } from "../store/subscription-repository.ts";
import { payAndGo } from "./paying.ts";
import { removedFlash, takeRemovedNotice, uploadViews } from "./uploads.ts";

/** The explanations a modal can show, by key; each one's address is its slug in the shopper's language. */
export const infoTopics = ["cancel", "storage"] as const;
type InfoTopic = (typeof infoTopics)[number];

/**
 * Carries what the shopper signed up for to the welcome page after the redirect (never in
 * a URL), for ten minutes; the page is made from it alone, so it looks the same whether
 * the address was new or already had a subscription.
 */
const welcomeCookie = "subscription_welcome";

interface WelcomeCookie {
  name: string;
  email: string;
  plan: string;
}

function readWelcomeCookie(request: FastifyRequest): WelcomeCookie | undefined {
  const raw = request.cookies[welcomeCookie];
  const unsigned = raw ? request.unsignCookie(raw) : undefined;
  if (!unsigned?.valid || !unsigned.value) return undefined;
  try {
    const value = JSON.parse(unsigned.value) as Partial<WelcomeCookie>;
    const { name, email, plan } = value;
    return typeof name === "string" && typeof email === "string" && typeof plan === "string"
      ? { name, email, plan }
      : undefined;
  } catch {
    return undefined;
  }
}

interface SignupState {
  values?: FormValues;
  errors?: FieldError[];
  /**
   * Said above the form: too many sign-ups from this client (everything typed kept), or,
   * signed in, an account that has a subscription already.
   */
  notice?: "rateLimited" | "alreadyActive";
}

/**
 * The subscription page: plans, the shopper's uploads and questions in tabs, and the
 * sign-up form. A sign-up is confirmed by a mailed link, which leads to paying the first
 * period (subscription-payment.ts); monthly payments after it are not part of the shop yet,
 * and the page says so.
 */
export function subscriptionRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, subscriptions, uploads, projects, config } = services;
  // Per client address (shared by every instance with REDIS_URL); every post counts. A
  // valid sign-up hashes its password with scrypt (N = 2^15, p = 3: about a quarter of a
  // second of CPU), which must not be something one client can ask for without end.
  const signupLimit = app.createRateLimit({
    max: config.signupRateLimit,
    timeWindow: 10 * 60_000,
    keyGenerator: limitKey("sign-ups"),
  });
  const money = (cents: number, locale: Locale) => formatPrice(cents, locale);

  const topicSlug = (topic: InfoTopic, locale: Locale) =>
    i18n.t[locale](`subscription.info.topics.${topic}.slug`);
  const topicBySlug = perLocale((l) => new Map(infoTopics.map((topic) => [topicSlug(topic, l), topic])));
  const infoHref = (topic: InfoTopic, locale: Locale) =>
    i18n.routes.pathFor("subscriptionInfo", locale, { topic: topicSlug(topic, locale) });

  const planView = (plan: Plan, t: Translate, locale: Locale, endsAt: Date) => {
    const size = storageSizeText(t, plan.storageGb);
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

  /** The sign-up form; signed in, only the plan: the account says who, and its address is confirmed. */
  const signupData = (request: FastifyRequest, state: SignupState, session: Session | undefined) => {
    const query = request.query as Record<string, unknown>;
    const wanted = query[i18n.t[request.locale]("subscription.planQuery")];
    const plan = planById(wanted)?.id ?? recommendedPlanId;
    return {
      form: session ? subscriptionPlanForm : subscriptionForm,
      // The country of the page's language, which most subscribers live in; they may choose the other.
      values: state.values ?? { plan, country: countryOfLocale[request.locale] },
      errors: state.errors ?? [],
      notice: state.notice,
      ...(session
        ? { signedInAs: i18n.t[request.locale]("subscription.signedInAs", { email: session.account.email }) }
        : {}),
    };
  };

  const offerVariant = () => offerEndsAt(new Date()).toISOString();

  const showPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    state: SignupState = {},
    status = 200,
  ) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const owner = readShopperId(request);
    // Read before the photos, so a change in between fails the check of a kept page.
    const shopper = owner ? await shopperShown(projects, owner) : undefined;
    const session = await request.signedIn();
    const shopperUploads = owner ? await uploads.listByOwner(owner) : [];
    // Photos in a book that was ordered stay (production needs them): those have no remove button.
    const ordered = await projects.ordered(shopperUploads.flatMap((u) => (u.projectId ? [u.projectId] : [])));
    const labels = {
      plans: t("subscription.tabs.plans"),
      uploads: t("subscription.tabs.uploads"),
      questions: t("subscription.tabs.questions"),
    };
    reply.header("cache-control", "private, no-store");
    // A shopper's own page shows their photos and books (their revision, raised by the
    // database on every instance), the account it is signed in to, the header's count and
    // the offer's end date.
    const own = status === 200 && shopper !== undefined && Object.keys(state).length === 0;
    const shows =
      own && !hasFlash(request, removedFlash)
        ? pageShows(
            shopper,
            ...(session ? [accountShown(services.accounts, session, services.now)] : []),
            await headerCountShown(services.carts, request),
            clockShown("offer ends", offerVariant),
          )
        : undefined;
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
        signup: signupData(request, state, session),
        info: Object.fromEntries(infoTopics.map((topic) => [topic, infoHref(topic, locale)])),
      }),
      {
        status,
        noindex: status !== 200,
        fragment: "partials/subscription-signup",
        // A shopper without photos sees what everyone without photos sees: that copy is shared.
        // Signed in, the form names the account's address: never shared.
        cacheable: status === 200 && !owner && !session,
        // The plans' texts name the offer's end: a shared copy is made again when it passes.
        cacheVariant: offerVariant(),
        currentVariant: offerVariant,
        shows,
      },
    );
  };

  route("subscription", "GET", (request, reply) => showPage(request, reply));

  /**
   * The remote check of the e-mail field: its format only, the same answer for every
   * well-formed address. Whether an address has a subscription is told only to that
   * address, by mail, after a sign-up (ADR 0075).
   */
  const emailFormat = async (email: string, t: Translate, locale: Locale): Promise<true | string> => {
    const errors = await subscriptionForm.validate({ email }, t, undefined, locale);
    return errors.find((e) => e.field === "email")?.message ?? true;
  };

  // The sign-up form posts here; after a refused post the browser shows this address, and
  // the language switcher offers it in the other language: a visit lands on the form.
  route("subscriptionSignup", "GET", async (request, reply) =>
    reply.redirect(
      `${i18n.routes.pathFor("subscription", request.locale)}#${i18n.t[request.locale]("subscription.signupAnchor")}`,
      303,
    ),
  );

  route("subscriptionSignup", "POST", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const session = await request.signedIn();
    if (session) return subscribeSignedIn(request, reply, session);
    const values = subscriptionForm.values(request.body);
    if (await overRateLimit(signupLimit, request, reply, "subscription sign-up")) {
      return showPage(request, reply, { values, notice: "rateLimited" }, 429);
    }
    const errors = await subscriptionForm.validate(values, t, undefined, request.locale);
    const plan = planById(values.plan);
    const country = values.country;
    if (errors.length > 0 || !plan || !isDeliveryCountry(country))
      return showPage(request, reply, { values, errors }, 422);

    // From here on every sign-up is handled alike (the same hashing, the same transaction, the
    // same answer): the address hears by mail whether there is a link to confirm or already a
    // subscription, and only its owner can read that. The sign-up gets a shopper id of its own,
    // the browser's from now on: only what is made under it goes to the account (ADR 0094).
    const owner = randomId();
    setShopperId(reply, owner);
    const signup: WelcomeCookie = {
      name: (values.name ?? "").trim(),
      email: (values.email ?? "").trim(),
      plan: plan.id,
    };
    const confirmLink = (token: string) =>
      `${originOf(request, services)}${i18n.routes.pathFor("subscriptionConfirm", locale, { token })}`;
    await services.signups.request(
      {
        ownerId: owner,
        name: signup.name,
        email: signup.email,
        plan: {
          planId: plan.id,
          monthlyCents: plan.monthlyCents,
          offer: plan.offer,
          country,
        },
        passwordHash: await hashPassword(values.password ?? ""),
        locale,
      },
      {
        confirm: (token) =>
          subscriptionConfirmMail(
            t,
            locale,
            { ...signup, planId: plan.id, firstPeriodCents: firstPeriodCents(plan) },
            confirmLink(token),
          ),
        alreadyKnown: (address) => alreadySubscribedMail(t, locale, address, config.supportEmail),
      },
      services.now(),
    );
    services.mailQueued();
    reply.header("cache-control", "private, no-store");
    if (!isAjax(request)) {
      // Sent only to the welcome page, in either language (the shopper may switch there).
      for (const l of locales) {
        reply.setCookie(welcomeCookie, JSON.stringify(signup), {
          signed: true,
          httpOnly: true,
          sameSite: "lax",
          secure: "auto",
          path: i18n.routes.pathFor("subscriptionWelcome", l),
          maxAge: 10 * 60,
        });
      }
      return reply.redirect(i18n.routes.pathFor("subscriptionWelcome", locale), 303);
    }
    return reply.page(
      "partials/subscription-welcome",
      { title: t("subscription.welcome.title"), welcome: welcomeView(signup, plan, t, locale) },
      { fragment: "partials/subscription-welcome" },
    );
  });

  /** Signed in: the plan is all that is asked, and paying follows at once. */
  const subscribeSignedIn = async (request: FastifyRequest, reply: FastifyReply, session: Session) => {
    const t = i18n.t[request.locale];
    const values = subscriptionPlanForm.values(request.body);
    const errors = await subscriptionPlanForm.validate(values, t, undefined, request.locale);
    const plan = planById(values.plan);
    const country = values.country;
    if (errors.length > 0 || !plan || !isDeliveryCountry(country))
      return showPage(request, reply, { values, errors }, 422);
    const { account } = session;
    const started = await services.database.db
      .transaction()
      .execute((trx) =>
        subscriptions.startFor(
          trx,
          account,
          { planId: plan.id, monthlyCents: plan.monthlyCents, offer: plan.offer },
          account.ownerId,
          services.now(),
          country,
        ),
      );
    if (started.kind === "already-active")
      return showPage(request, reply, { values, notice: "alreadyActive" }, 409);
    const { subscription } = started;
    return payAndGo(
      services,
      request,
      reply,
      (options) => services.subscriptionPayments.start(subscription.id, options),
      i18n.routes.pathFor("subscriptionStatus", request.locale, { subscription: subscription.id }),
    );
  };

  /**
   * What the shopper signed up for, as the form said, and where the link went: the same
   * whether the address was new or not.
   */
  const welcomeView = (signup: WelcomeCookie, plan: Plan, t: Translate, locale: Locale) => ({
    heading: t("subscription.welcome.heading", { name: signup.name }),
    message: t("subscription.welcome.message", {
      plan: t(`subscription.plans.${plan.id}.name`),
      email: signup.email,
    }),
    linkValid: t("subscription.welcome.linkValid", { hours: signupLinkHours }),
    price: plan.offer
      ? t("subscription.welcome.offerPrice", {
          count: plan.offer.months,
          price: money(plan.offer.monthlyCents, locale),
          regular: money(plan.monthlyCents, locale),
        })
      : t("subscription.welcome.price", { price: money(plan.monthlyCents, locale) }),
  });

  route("subscriptionWelcome", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const signup = readWelcomeCookie(request);
    const plan = signup && planById(signup.plan);
    // Nothing signed up from this browser lately (or the cookie expired): offer the form.
    if (!signup || !plan) return reply.redirect(i18n.routes.pathFor("subscription", locale), 303);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/subscription-welcome",
      { title: t("subscription.welcome.title"), welcome: welcomeView(signup, plan, t, locale) },
      { noindex: true },
    );
  });

  route("subscriptionInfo", "GET", async (request, reply) => {
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

  route(
    "subscriptionEmailCheck",
    "GET",
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const email = typeof query.email === "string" ? query.email.slice(0, 1000) : "";
      reply.header("cache-control", "no-store");
      const answer = email ? await emailFormat(email, i18n.t[request.locale], request.locale) : true;
      return reply.type("application/json").send(JSON.stringify(answer));
    },
    { rateLimit: { max: 60, timeWindow: "1 minute" } },
  );
}

/** A plan's storage as the plans' table says it: "250 GB", "1 TB". */
export function storageSizeText(t: Translate, storageGb: number): string {
  return storageGb >= 1000
    ? t("subscription.terabytes", { count: storageGb / 1000 })
    : t("subscription.gigabytes", { count: storageGb });
}
