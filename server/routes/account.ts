import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkCurrentPassword } from "../accounts/current-password.ts";
import { keepSignedInPage } from "../accounts/keep-signed-in-page.ts";
import type { RefusalNotice } from "../accounts/password-back-off.ts";
import { hashPassword } from "../domain/password-hash.ts";
import { emailChangeForm, passwordChangeForm } from "../forms/account-forms.ts";
import { maxQuantity } from "../forms/add-to-cart-form.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { takeFlash, writeFlash } from "../http/cookies/flash-cookie.ts";
import { overRateLimit } from "../http/limits/form-rate-limit.ts";
import { limitKey } from "../http/limits/shared-counters.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import { requireAccount } from "../http/security/account-guard.ts";
import type { Services } from "../http/services.ts";
import {
  emailChangeMail,
  emailChangeNoticeMail,
  emailLinkHours,
  passwordChangedMail,
} from "../mail/account-mails.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { type Account, emailKey } from "../store/account-repository.ts";
import type { AccountArrival } from "./sign-in.ts";

/** Links for a new address one account may be mailed in an hour. */
const emailMailsPerHour = 3;

type SettingsNotice =
  | { kind: "passwordChanged" }
  | { kind: "emailSent"; email: string }
  | { kind: "emailChanged" };

/**
 * The account's own pages: the overview with its sections, and the settings (password and
 * e-mail address). Each needs a signed-in browser (requireAccount), works without
 * JavaScript, and keeps what was typed on a 422 (but passwords).
 */
export function accountRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, accounts, config } = services;
  // A change hashes a password, or mails: per client, as sign-ups are.
  const changeLimit = app.createRateLimit({
    max: config.signupRateLimit,
    timeWindow: 10 * 60_000,
    keyGenerator: limitKey("account-changes"),
  });

  route("account", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    await keepSignedInPage(services, request, reply, session);
    const t = i18n.t[request.locale];
    const arrival = takeFlash<AccountArrival>(request, reply, "account");
    const notices: string[] = [];
    if (arrival) {
      const kind = ["welcome", "signedIn", "passwordReset"].includes(arrival.kind)
        ? arrival.kind
        : "signedIn";
      notices.push(
        kind === "passwordReset" ? t("account.signIn.passwordReset") : t(`account.overview.${kind}`),
      );
      if (arrival.merged) notices.push(t("account.overview.merged"));
      const max = services.config.limits.linesPerCart;
      if (arrival.capped > 0)
        notices.push(t("account.overview.capped", { count: arrival.capped, max: maxQuantity }));
      if (arrival.left > 0) notices.push(t("account.overview.left", { count: arrival.left, max }));
    }
    const { account } = session;
    return reply.page(
      "pages/account",
      {
        title: t("account.overview.title"),
        heading: t("account.overview.heading", { name: account.name }),
        signedInAs: t("account.overview.signedInAs", { email: account.email }),
        notices,
        sections: (
          [
            "accountOrders",
            "accountPhotos",
            "accountSubscription",
            "accountAddresses",
            "accountSettings",
            "accountPrivacy",
          ] as const
        ).map((id) => ({
          href: i18n.routes.pathFor(id, request.locale),
          text: t(`account.overview.${sectionText[id]}`),
        })),
      },
      { noindex: true, keyedByData: true },
    );
  });

  const showSettings = (
    request: FastifyRequest,
    reply: FastifyReply,
    account: Account,
    state: {
      password?: { errors: FieldError[]; refusal?: RefusalNotice };
      email?: { values: FormValues; errors: FieldError[]; refusal?: RefusalNotice };
      problem?: string;
    } = {},
    status = 200,
  ) => {
    const t = i18n.t[request.locale];
    const flash = status === 200 ? takeFlash<SettingsNotice>(request, reply, "settings") : undefined;
    const notice =
      flash?.kind === "passwordChanged"
        ? t("account.settings.passwordChanged")
        : flash?.kind === "emailSent"
          ? t("account.settings.emailSent", { email: flash.email, current: account.email })
          : flash?.kind === "emailChanged"
            ? t("account.settings.emailChanged", { email: account.email })
            : undefined;
    return reply.page(
      "pages/account-settings",
      {
        title: t("account.settings.title"),
        notice,
        problem: state.problem,
        currentEmail: t("account.settings.currentEmail", { email: account.email }),
        passwordForm: {
          form: passwordChangeForm,
          action: i18n.routes.pathFor("accountPassword", request.locale),
          values: {},
          errors: state.password?.errors ?? [],
          submit: t("account.settings.passwordSubmit"),
          notice: state.password?.refusal?.notice,
          noticeLink: state.password?.refusal?.noticeLink,
        },
        emailForm: {
          form: emailChangeForm,
          action: i18n.routes.pathFor("accountEmail", request.locale),
          values: state.email?.values ?? {},
          errors: state.email?.errors ?? [],
          submit: t("account.settings.emailSubmit"),
          notice: state.email?.refusal?.notice,
          noticeLink: state.email?.refusal?.noticeLink,
        },
      },
      { status, noindex: true, keyedByData: true },
    );
  };

  route("accountSettings", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    await keepSignedInPage(services, request, reply, session);
    return showSettings(request, reply, session.account);
  });

  // The forms post to addresses of their own; after a refused post the browser shows that
  // address, and the language switcher offers it in the other language: a visit lands on the page.
  for (const id of ["accountPassword", "accountEmail"] as const) {
    route(id, "GET", async (request, reply) =>
      reply.redirect(i18n.routes.pathFor("accountSettings", request.locale), 303),
    );
  }

  route("accountPassword", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const locale = request.locale;
    const t = i18n.t[locale];
    if (await overRateLimit(changeLimit, request, reply, "password change")) {
      return showSettings(
        request,
        reply,
        session.account,
        { problem: t("account.settings.rateLimited") },
        429,
      );
    }
    const values = passwordChangeForm.values(request.body);
    const errors = await passwordChangeForm.validate(values, t, undefined, locale);
    if (errors.length > 0)
      return showSettings(request, reply, session.account, { password: { errors } }, 422);
    const problem = await checkCurrentPassword(
      services,
      request,
      reply,
      session.account,
      values.currentPassword ?? "",
    );
    if (problem)
      return showSettings(request, reply, session.account, { password: problem.form }, problem.status);
    const hash = await hashPassword(values.password ?? "");
    const at = services.now();
    await services.database.db.transaction().execute(async (trx) => {
      // Every other browser signed in to the account is signed out; this one stays.
      await accounts.setPassword(trx, session.account.id, hash, at, session.tokenHash);
      await enqueueMail(trx, passwordChangedMail(t, locale, session.account, config.supportEmail), at);
    });
    services.mailQueued();
    writeFlash(reply, "settings", { kind: "passwordChanged" });
    return reply.redirect(i18n.routes.pathFor("accountSettings", locale), 303);
  });

  route("accountEmail", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const { account } = session;
    const locale = request.locale;
    const t = i18n.t[locale];
    const values = emailChangeForm.values(request.body);
    const kept = { email: values.email ?? "" };
    if (await overRateLimit(changeLimit, request, reply, "e-mail change")) {
      return showSettings(request, reply, account, { problem: t("account.settings.rateLimited") }, 429);
    }
    let errors = await emailChangeForm.validate(values, t, undefined, locale);
    const newEmail = (values.email ?? "").trim();
    if (errors.length === 0 && emailKey(newEmail) === emailKey(account.email)) {
      errors = [{ field: "email", message: t("account.settings.emailSame") }];
    }
    if (errors.length > 0)
      return showSettings(request, reply, account, { email: { values: kept, errors } }, 422);
    const problem = await checkCurrentPassword(
      services,
      request,
      reply,
      account,
      values.currentPassword ?? "",
    );
    if (problem)
      return showSettings(
        request,
        reply,
        account,
        { email: { values: kept, ...problem.form } },
        problem.status,
      );
    const link = (token: string) =>
      `${originOf(request, services)}${i18n.routes.pathFor("accountEmailConfirm", locale, { token })}`;
    const issued = await accounts.issueToken(
      account.id,
      "change-email",
      (token) => emailChangeMail(t, locale, account, newEmail, link(token)),
      {
        at: services.now(),
        perHour: emailMailsPerHour,
        newEmail,
        alsoMail: emailChangeNoticeMail(t, locale, account, newEmail, config.supportEmail),
      },
    );
    if (!issued)
      return showSettings(request, reply, account, { problem: t("account.settings.rateLimited") }, 429);
    services.mailQueued();
    writeFlash(reply, "settings", { kind: "emailSent", email: newEmail });
    return reply.redirect(i18n.routes.pathFor("accountSettings", locale), 303);
  });

  const emailLinkProblem = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: 404 | 410,
    message?: string,
  ) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/link-problem",
      {
        title: t("account.settings.linkInvalidTitle"),
        heading: t("account.settings.linkInvalidTitle"),
        message: message ?? t("account.settings.linkInvalid", { hours: emailLinkHours }),
        action: {
          href: i18n.routes.pathFor("accountSettings", request.locale),
          text: t("account.settings.title"),
        },
      },
      { status, noindex: true },
    );
  };

  route("accountEmailConfirm", "GET", async (request, reply) => {
    const t = i18n.t[request.locale];
    const { token } = request.params as { token: string };
    const link = await accounts.tokenLink(token, "change-email", services.now(), emailLinkHours);
    if (link.state !== "valid") return emailLinkProblem(request, reply, link.state === "spent" ? 410 : 404);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/account-email-confirm",
      {
        title: t("account.settings.confirmTitle"),
        intro: t("account.settings.confirmIntro", { email: link.newEmail ?? link.account.email }),
        action: i18n.routes.pathFor("accountEmailConfirm", request.locale, { token }),
      },
      { noindex: true },
    );
  });

  route("accountEmailConfirm", "POST", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const { token } = request.params as { token: string };
    const at = services.now();
    const outcome = await accounts.redeemToken(
      token,
      "change-email",
      at,
      emailLinkHours,
      async (trx, account, newEmail) => {
        const email = newEmail ?? account.email;
        const taken = await trx
          .selectFrom("accounts")
          .select("id")
          .where("email_key", "=", emailKey(email))
          .where("id", "!=", account.id)
          .executeTakeFirst();
        if (taken) return { kind: "taken" as const, email };
        await trx
          .updateTable("accounts")
          .set({
            email,
            email_key: emailKey(email),
            email_confirmed_at: at.toISOString(),
            updated_at: at.toISOString(),
          })
          .where("id", "=", account.id)
          .execute();
        return { kind: "changed" as const, accountId: account.id };
      },
    );
    if (!outcome) return emailLinkProblem(request, reply, 410);
    if (outcome.kind === "taken") {
      return emailLinkProblem(
        request,
        reply,
        410,
        t("account.settings.emailTaken", { email: outcome.email }),
      );
    }
    const session = await request.signedIn();
    if (session?.account.id === outcome.accountId) {
      writeFlash(reply, "settings", { kind: "emailChanged" });
      return reply.redirect(i18n.routes.pathFor("accountSettings", locale), 303);
    }
    writeFlash(reply, "sign-in", "emailConfirmed");
    return reply.redirect(i18n.routes.pathFor("signIn", locale), 303);
  });
}

const sectionText = {
  accountOrders: "orders",
  accountPhotos: "photos",
  accountSubscription: "subscription",
  accountAddresses: "addresses",
  accountSettings: "settings",
  accountPrivacy: "privacy",
} as const;
