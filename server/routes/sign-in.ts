import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { signInBrowser, signOutBrowser } from "../accounts/browser-session.ts";
import { checkCredentials } from "../accounts/credentials.ts";
import { type RefusalNotice, refusalNotice } from "../accounts/password-back-off.ts";
import { hashPassword } from "../domain/password-hash.ts";
import { passwordForgottenForm, passwordResetForm, signInForm } from "../forms/account-forms.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { takeFlash, writeFlash } from "../http/cookies/flash-cookie.ts";
import { overRateLimit } from "../http/limits/form-rate-limit.ts";
import { limitKey } from "../http/limits/shared-counters.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import { returnParameter, safeReturnPath } from "../http/security/account-guard.ts";
import type { Services } from "../http/services.ts";
import { passwordResetMail, resetLinkHours, verifyEmailMail } from "../mail/account-mails.ts";
import type { Account } from "../store/account-repository.ts";
import type { MergeOutcome } from "../store/cart-repository.ts";

/** What the sign-in page may say above its form, after a redirect. */
const signInNotices = [
  "signedOut",
  "signedOutEverywhere",
  "signInFirst",
  "passwordReset",
  "emailConfirmed",
] as const;
type SignInNotice = (typeof signInNotices)[number];

/** What the account page says on arrival: why it is shown, and what the merge of the carts did. */
export interface AccountArrival {
  kind: "welcome" | "signedIn" | "passwordReset";
  merged: boolean;
  capped: number;
  left: number;
}

export function accountArrival(
  merged: MergeOutcome | undefined,
  kind: AccountArrival["kind"],
): AccountArrival {
  return { kind, merged: merged !== undefined, capped: merged?.capped ?? 0, left: merged?.left ?? 0 };
}

/** Reset links one account may be mailed in an hour. */
const resetMailsPerHour = 3;

/**
 * Signing in and out, and a forgotten password. A wrong address and a wrong password get one
 * message, and the same work (one scrypt) either way; each attempt is counted before its check,
 * and failures slow the next answers down and then stop them (server/accounts/password-back-off.ts). Signing in makes a new session and
 * brings the browser's cart, photos and orders to the account (browser-session.ts).
 */
export function signInRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, accounts, config } = services;
  // A reset request mails, a reset hashes: per client, as sign-ups are.
  const resetLimit = app.createRateLimit({
    max: config.signupRateLimit,
    timeWindow: 10 * 60_000,
    keyGenerator: limitKey("password-resets"),
  });

  const showSignIn = (
    request: FastifyRequest,
    reply: FastifyReply,
    state: {
      values?: FormValues;
      errors?: FieldError[];
      notice?: string;
      problem?: string;
      problemLink?: RefusalNotice["noticeLink"];
    } = {},
    status = 200,
  ) => {
    const t = i18n.t[request.locale];
    const query = request.query as Record<string, unknown>;
    const back = safeReturnPath(query[returnParameter]);
    const action = i18n.routes.pathFor("signIn", request.locale);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/sign-in",
      {
        title: t("account.signIn.title"),
        notice: state.notice,
        accountForm: {
          form: signInForm,
          action: back ? `${action}?${new URLSearchParams({ [returnParameter]: back })}` : action,
          values: state.values ?? {},
          errors: state.errors ?? [],
          submit: t("account.signIn.submit"),
          notice: state.problem,
          noticeLink: state.problemLink,
        },
      },
      {
        status,
        noindex: status !== 200,
        // The empty form is everyone's (the return path is in the address, the token filled in per answer).
        cacheable: status === 200 && state.values === undefined && !state.notice && !state.problem,
      },
    );
  };

  route("signIn", "GET", async (request, reply) => {
    const t = i18n.t[request.locale];
    const flash = takeFlash<SignInNotice>(request, reply, "sign-in");
    const notice = flash && signInNotices.includes(flash) ? t(`account.signIn.${flash}`) : undefined;
    return showSignIn(request, reply, { notice });
  });

  route("signIn", "POST", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const values = signInForm.values(request.body);
    const errors = await signInForm.validate(values, t, undefined, locale);
    // Never the password back: only the address is kept.
    const kept = { email: values.email ?? "" };
    if (errors.length > 0) return showSignIn(request, reply, { values: kept, errors }, 422);
    const email = (values.email ?? "").trim();

    const attempt = await services.passwordBackOff.attempt(request, reply, email);
    if (attempt.kind === "refused") {
      const forgotten = i18n.routes.pathFor("passwordForgotten", locale);
      const { notice, noticeLink } = refusalNotice(t, attempt, forgotten);
      return showSignIn(request, reply, { values: kept, problem: notice, problemLink: noticeLink }, 429);
    }
    if (attempt.delayMs > 0) await services.sleep(attempt.delayMs);

    let account: Account | undefined;
    try {
      account = await checkCredentials(accounts, email, values.password ?? "");
    } catch (err) {
      // The database cannot answer: the form again, with the address and the shop's words.
      request.log.error({ err }, "sign-in: accounts cannot be read");
      await attempt.unchecked();
      return showSignIn(request, reply, { values: kept, problem: t("account.signIn.unavailable") }, 503);
    }
    if (!account) {
      request.log.info("sign-in refused");
      return showSignIn(request, reply, { values: kept, problem: t("account.signIn.wrong") }, 422);
    }
    await attempt.right();
    if (!account.emailConfirmedAt) {
      // Made before sign-up links: its address is confirmed before it signs anyone in.
      const link = (token: string) =>
        `${originOf(request, services)}${i18n.routes.pathFor("accountEmailConfirm", locale, { token })}`;
      await accounts.issueToken(
        account.id,
        "change-email",
        (token) => verifyEmailMail(t, locale, account, link(token)),
        {
          at: services.now(),
          perHour: resetMailsPerHour,
          newEmail: account.email,
        },
      );
      services.mailQueued();
      const problem = t("account.signIn.unconfirmed", { email: account.email });
      return showSignIn(request, reply, { values: kept, problem }, 422);
    }

    const { merged } = await signInBrowser(services, request, reply, account);
    writeFlash(reply, "account", accountArrival(merged, "signedIn"));
    const query = request.query as Record<string, unknown>;
    const back = safeReturnPath(query[returnParameter]);
    return reply.redirect(back ?? i18n.routes.pathFor("account", locale), 303);
  });

  route("signOut", "POST", async (request, reply) => {
    await signOutBrowser(services, request, reply);
    writeFlash(reply, "sign-in", "signedOut");
    return reply.redirect(i18n.routes.pathFor("signIn", request.locale), 303);
  });

  route("accountSignOutEverywhere", "POST", async (request, reply) => {
    await signOutBrowser(services, request, reply, { everywhere: true });
    writeFlash(reply, "sign-in", "signedOutEverywhere");
    return reply.redirect(i18n.routes.pathFor("signIn", request.locale), 303);
  });

  const showForgotten = (
    request: FastifyRequest,
    reply: FastifyReply,
    state: { values?: FormValues; errors?: FieldError[]; sent?: string; problem?: string } = {},
    status = 200,
  ) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/password-forgotten",
      {
        title: t("account.forgotten.title"),
        sent: state.sent,
        accountForm: {
          form: passwordForgottenForm,
          action: i18n.routes.pathFor("passwordForgotten", request.locale),
          values: state.values ?? {},
          errors: state.errors ?? [],
          submit: t("account.forgotten.submit"),
          notice: state.problem,
        },
      },
      { status, noindex: status !== 200 },
    );
  };

  route("passwordForgotten", "GET", async (request, reply) => showForgotten(request, reply));

  route("passwordForgotten", "POST", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const values = passwordForgottenForm.values(request.body);
    if (await overRateLimit(resetLimit, request, reply, "password reset request")) {
      return showForgotten(request, reply, { values, problem: t("account.forgotten.rateLimited") }, 429);
    }
    const errors = await passwordForgottenForm.validate(values, t, undefined, locale);
    if (errors.length > 0) return showForgotten(request, reply, { values, errors }, 422);
    const email = (values.email ?? "").trim();
    // The same answer whether or not the address has an account: only its mailbox hears.
    const account = await accounts.findByEmail(email);
    if (account) {
      const link = (token: string) =>
        `${originOf(request, services)}${i18n.routes.pathFor("passwordReset", locale, { token })}`;
      await accounts.issueToken(
        account.id,
        "reset-password",
        (token) => passwordResetMail(t, locale, account, link(token)),
        {
          at: services.now(),
          perHour: resetMailsPerHour,
        },
      );
      services.mailQueued();
    }
    return showForgotten(request, reply, { values, sent: t("account.forgotten.sent", { email }) });
  });

  const resetProblem = (request: FastifyRequest, reply: FastifyReply, status: 404 | 410) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/link-problem",
      {
        title: t("account.reset.invalidTitle"),
        heading: t("account.reset.invalidTitle"),
        message: t("account.reset.invalid"),
        action: {
          href: i18n.routes.pathFor("passwordForgotten", request.locale),
          text: t("account.reset.newLink"),
        },
      },
      { status, noindex: true },
    );
  };

  const showReset = (
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    email: string,
    errors: FieldError[] = [],
    status = 200,
  ) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/password-reset",
      {
        title: t("account.reset.title"),
        intro: t("account.reset.intro", { email }),
        accountForm: {
          form: passwordResetForm,
          action: i18n.routes.pathFor("passwordReset", request.locale, { token }),
          values: {},
          errors,
          submit: t("account.reset.submit"),
        },
      },
      // The token is in the address: the page goes to no search engine.
      { status, noindex: true },
    );
  };

  route("passwordReset", "GET", async (request, reply) => {
    const { token } = request.params as { token: string };
    const link = await accounts.tokenLink(token, "reset-password", services.now(), resetLinkHours);
    if (link.state !== "valid") return resetProblem(request, reply, link.state === "spent" ? 410 : 404);
    return showReset(request, reply, token, link.account.email);
  });

  route("passwordReset", "POST", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const { token } = request.params as { token: string };
    const link = await accounts.tokenLink(token, "reset-password", services.now(), resetLinkHours);
    if (link.state !== "valid") return resetProblem(request, reply, link.state === "spent" ? 410 : 404);
    const values = passwordResetForm.values(request.body);
    const errors = await passwordResetForm.validate(values, t, undefined, locale);
    if (errors.length > 0) return showReset(request, reply, token, link.account.email, errors, 422);
    const hash = await hashPassword(values.password ?? "");
    const at = services.now();
    // The token is used and the password set in one transaction; every session ends.
    const account = await accounts.redeemToken(
      token,
      "reset-password",
      at,
      resetLinkHours,
      async (trx, found) => {
        await accounts.setPassword(trx, found.id, hash, at);
        return found;
      },
    );
    if (!account) return resetProblem(request, reply, 410);
    const { merged } = await signInBrowser(services, request, reply, account);
    writeFlash(reply, "account", accountArrival(merged, "passwordReset"));
    return reply.redirect(i18n.routes.pathFor("account", locale), 303);
  });
}
