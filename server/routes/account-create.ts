import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { signInBrowser } from "../accounts/browser-session.ts";
import { orderNumber } from "../domain/order-number.ts";
import { hashPassword } from "../domain/password-hash.ts";
import { accountCreateForm } from "../forms/account-forms.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { takeFlash, writeFlash } from "../http/cookies/flash-cookie.ts";
import { setShopperId } from "../http/cookies/shopper-cookie.ts";
import { overRateLimit } from "../http/limits/form-rate-limit.ts";
import { limitKey } from "../http/limits/shared-counters.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import { accountConfirmMail, accountKnownMail } from "../mail/account-mails.ts";
import { randomId } from "../store/random-id.ts";
import type { NewSignup } from "../store/signup-repository.ts";
import { signupLinkHours } from "../store/signup-repository.ts";
import { accountArrival } from "./sign-in.ts";

/** The flash that carries the address a link went to, to the page that says so. */
const mailSentFlash = "account-mail-sent";

/**
 * Asks for an account: the sign-up is kept and its link mailed (signups.request). The
 * answer is the same whether the address is new or already has an account, whose owner is
 * mailed instead (with the way to a new password). Used by the account form and by "Bewaar
 * je gegevens" on an order's page.
 */
export async function requestAccount(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  signup: Omit<NewSignup, "ownerId" | "locale">,
): Promise<FastifyReply> {
  const { i18n } = services;
  const locale = request.locale;
  const t = i18n.t[locale];
  const origin = originOf(request, services);
  // A shopper id of the sign-up's own, the browser's from now on: what is made under it is
  // the sign-up's, and its account takes that; what the browser held before, perhaps
  // someone else's on a shared computer, stays where it is (ADR 0094). A signed-in browser
  // (a form left open) keeps its account's id: its photos are that account's.
  const signedIn = await request.signedIn();
  const ownerId = signedIn ? undefined : randomId();
  if (ownerId) setShopperId(reply, ownerId);
  await services.signups.request(
    { ...signup, locale, ownerId },
    {
      confirm: (token) =>
        accountConfirmMail(
          t,
          locale,
          signup,
          `${origin}${i18n.routes.pathFor("accountConfirm", locale, { token })}`,
        ),
      alreadyKnown: (address) =>
        accountKnownMail(t, locale, address, `${origin}${i18n.routes.pathFor("passwordForgotten", locale)}`),
    },
    services.now(),
  );
  services.mailQueued();
  writeFlash(reply, mailSentFlash, { email: signup.email });
  return reply.redirect(i18n.routes.pathFor("accountMailSent", locale), 303);
}

/**
 * Making an account: the form, the page that says a link went out, and the link's page,
 * whose button (never the opening of the link: mail scanners open links too) makes the
 * account and signs the browser in.
 */
export function accountCreateRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, signups, orders } = services;
  // Each account asked for hashes a password and may mail: per client, as sign-ups are.
  const createLimit = app.createRateLimit({
    max: services.config.signupRateLimit,
    timeWindow: 10 * 60_000,
    keyGenerator: limitKey("account-sign-ups"),
  });

  const showForm = (
    request: FastifyRequest,
    reply: FastifyReply,
    state: { values?: FormValues; errors?: FieldError[]; problem?: string } = {},
    status = 200,
  ) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/account-create",
      {
        title: t("account.create.title"),
        accountForm: {
          form: accountCreateForm,
          action: i18n.routes.pathFor("accountCreate", request.locale),
          values: state.values ?? {},
          errors: state.errors ?? [],
          submit: t("account.create.submit"),
          notice: state.problem,
        },
      },
      { status, noindex: status !== 200 },
    );
  };

  route("accountCreate", "GET", async (request, reply) => {
    if (await request.signedIn()) return reply.redirect(i18n.routes.pathFor("account", request.locale), 303);
    return showForm(request, reply);
  });

  route("accountCreate", "POST", async (request, reply) => {
    const t = i18n.t[request.locale];
    const values = accountCreateForm.values(request.body);
    const kept = { name: values.name ?? "", email: values.email ?? "" };
    if (await overRateLimit(createLimit, request, reply, "account sign-up")) {
      return showForm(request, reply, { values: kept, problem: t("account.create.rateLimited") }, 429);
    }
    const errors = await accountCreateForm.validate(values, t, undefined, request.locale);
    if (errors.length > 0) return showForm(request, reply, { values: kept, errors }, 422);
    return requestAccount(services, request, reply, {
      name: (values.name ?? "").trim(),
      email: (values.email ?? "").trim(),
      passwordHash: await hashPassword(values.password ?? ""),
    });
  });

  route("accountMailSent", "GET", async (request, reply) => {
    const t = i18n.t[request.locale];
    const sent = takeFlash<{ email?: unknown }>(request, reply, mailSentFlash);
    if (typeof sent?.email !== "string")
      return reply.redirect(i18n.routes.pathFor("accountCreate", request.locale), 303);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/account-mail-sent",
      {
        title: t("account.mailSent.title"),
        message: t("account.mailSent.message", { email: sent.email }),
        linkValid: t("account.mailSent.linkValid", { hours: signupLinkHours }),
      },
      { noindex: true },
    );
  });

  const linkProblem = (request: FastifyRequest, reply: FastifyReply, status: 404 | 410) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/link-problem",
      {
        title: t("account.confirm.invalidTitle"),
        heading: t("account.confirm.invalidTitle"),
        message: t("account.confirm.invalid", { hours: signupLinkHours }),
        action: {
          href: i18n.routes.pathFor("accountCreate", request.locale),
          text: t("account.confirm.again"),
        },
      },
      { status, noindex: true },
    );
  };

  /** Where a used link leads the browser that used it: its account, when it is signed in to it. */
  const afterUse = async (request: FastifyRequest, reply: FastifyReply, accountId: string | undefined) => {
    const session = await request.signedIn();
    if (session && session.account.id === accountId) {
      return reply.redirect(i18n.routes.pathFor("account", request.locale), 303);
    }
    return linkProblem(request, reply, 410);
  };

  const orderText = async (locale: Locale, orderId: number | undefined) => {
    if (orderId === undefined) return undefined;
    const order = await orders.get(orderId);
    return order ? i18n.t[locale]("account.confirm.fromOrder", { number: orderNumber(order.id) }) : undefined;
  };

  route("accountConfirm", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const { token } = request.params as { token: string };
    const link = await signups.link(token, services.now());
    if (link.state === "unknown") return linkProblem(request, reply, 404);
    if (link.state === "expired") return linkProblem(request, reply, 410);
    if (link.state === "used") return afterUse(request, reply, link.accountId);
    // A subscription's link has a page of its own.
    if (link.signup.plan) return linkProblem(request, reply, 404);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/account-confirm",
      {
        title: t("account.confirm.title"),
        confirm: {
          action: i18n.routes.pathFor("accountConfirm", locale, { token }),
          summary: t("account.confirm.summary", { name: link.signup.name, email: link.signup.email }),
          fromOrder: await orderText(locale, link.signup.orderId),
        },
      },
      { noindex: true },
    );
  });

  route("accountConfirm", "POST", async (request, reply) => {
    const { token } = request.params as { token: string };
    const link = await signups.link(token, services.now());
    if (link.state === "valid" && link.signup.plan) return linkProblem(request, reply, 404);
    const result = await signups.confirm(token, services.now());
    switch (result.kind) {
      case "unknown":
        return linkProblem(request, reply, 404);
      case "expired":
        return linkProblem(request, reply, 410);
      case "used":
        return afterUse(request, reply, result.accountId);
      case "already-active":
      case "confirmed": {
        const { merged } = await signInBrowser(services, request, reply, result.account);
        const kind = result.kind === "confirmed" && result.newAccount ? "welcome" : "signedIn";
        writeFlash(reply, "account", accountArrival(merged, kind));
        return reply.redirect(i18n.routes.pathFor("account", request.locale), 303);
      }
    }
  });
}
