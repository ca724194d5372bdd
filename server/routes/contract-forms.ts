import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  type ConfirmOutcome,
  confirmCancellation,
  confirmWithdrawal,
  contractLink,
} from "../contracts/contract-confirmation.ts";
import { type ContractDeps, receiveContractRequest } from "../contracts/contract-receipt.ts";
import {
  type ContractRequestInput,
  contractLinkDays,
  contractRequestKinds,
  receivedOn,
} from "../domain/contract-requests.ts";
import { formatPrice } from "../domain/money.ts";
import {
  contractDefaults,
  contractFormErrors,
  contractForms,
  contractRequestOf,
} from "../forms/contract-forms.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import {
  clearContractCookie,
  readContractCookie,
  type SentRequest,
  writeContractCookie,
} from "../http/cookies/contract-form-cookies.ts";
import { overClientLimit, retryText } from "../http/limits/client-limits.ts";
import { limitKey } from "../http/limits/shared-counters.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import { contractSummary, receivedText } from "../mail/contract-request-mails.ts";
import { mailDate } from "../mail/order-confirmation.ts";
import { contractRequestRepository } from "../store/contract-request-repository.ts";

/** Each form's four addresses: the form, its check page with the button, the page after it, the mailed link. */
const routeIds = {
  cancel: {
    form: "contractCancel",
    check: "contractCancelCheck",
    received: "contractCancelReceived",
    confirm: "contractCancelConfirm",
  },
  withdraw: {
    form: "contractWithdraw",
    check: "contractWithdrawCheck",
    received: "contractWithdrawReceived",
    confirm: "contractWithdrawConfirm",
  },
} as const;

interface FormState {
  values?: FormValues;
  errors?: FieldError[];
  /** Said above the form or the button: too many requests (from this client, or for this address). */
  notice?: string;
}

/**
 * Cancelling (§ 312k BGB) and withdrawing (directive 2023/2673) from the photo subscription
 * without signing in (ADR 0103), linked from every page's footer. Plain forms, each step a
 * page after a redirect: the form; the check page with its one button ("Jetzt kündigen",
 * "Widerruf bestätigen"); the page after it, with what was received and when. That page is
 * the same for every address: only the mail, which goes to the address typed, says whether a
 * subscription was found, and its link (which proves the address) makes the request take
 * effect.
 */
export function contractFormRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, config } = services;
  const deps: ContractDeps = {
    db: services.database.db,
    subscriptions: services.subscriptions,
    requests: contractRequestRepository(services.database.db),
    i18n,
  };
  // Per client address (shared by every instance with REDIS_URL), as the sign-ups: each
  // request sent mails an address, so at most SIGNUP_RATE_LIMIT in 10 minutes; every post of
  // either step counts against five times that, which stops a robot without locking out a
  // person correcting mistakes. The address itself has its own limit (contract-receipt.ts).
  const tenMinutes = 10 * 60_000;
  const sendLimit = app.createRateLimit({
    max: config.signupRateLimit,
    timeWindow: tenMinutes,
    keyGenerator: limitKey("contract-requests"),
  });
  const postLimit = app.createRateLimit({
    max: config.signupRateLimit * 5,
    timeWindow: tenMinutes,
    keyGenerator: limitKey("contract-posts"),
  });

  const limitedNotice = (request: FastifyRequest, seconds: number) => {
    const t = i18n.t[request.locale];
    return `${t("contractForms.rateLimited")} ${retryText(t, seconds)}`;
  };

  for (const kind of contractRequestKinds) {
    const ids = routeIds[kind];
    const form = contractForms[kind];
    const text = (locale: Locale, key: string, params?: Record<string, string | number>) =>
      i18n.t[locale](`contractForms.${kind}.${key}`, params);
    const today = () => receivedOn(services.now());
    const requestOf = (values: FormValues, locale: Locale): ContractRequestInput =>
      contractRequestOf(kind, values, locale);

    const showForm = (request: FastifyRequest, reply: FastifyReply, state: FormState, status = 200) => {
      const locale = request.locale;
      reply.header("cache-control", "private, no-store");
      return reply.page(
        "pages/contract-form",
        {
          title: text(locale, "title"),
          description: text(locale, "description"),
          contract: {
            kind,
            form,
            action: i18n.routes.pathFor(ids.form, locale),
            values: state.values ?? contractDefaults[kind],
            errors: state.errors ?? [],
            notice: state.notice,
          },
        },
        { status, noindex: status !== 200 },
      );
    };

    const showCheck = (
      request: FastifyRequest,
      reply: FastifyReply,
      values: FormValues,
      notice?: string,
      status = 200,
    ) => {
      const locale = request.locale;
      const t = i18n.t[locale];
      reply.header("cache-control", "private, no-store");
      return reply.page(
        "pages/contract-check",
        {
          title: text(locale, "checkTitle"),
          description: text(locale, "description"),
          check: {
            kind,
            summary: contractSummary(t, locale, requestOf(values, locale)),
            action: i18n.routes.pathFor(ids.check, locale),
            editHref: i18n.routes.pathFor(ids.form, locale),
            notice,
          },
        },
        { status, noindex: true },
      );
    };

    route(ids.form, "GET", async (request, reply) =>
      showForm(request, reply, { values: readContractCookie<FormValues>(request, kind, "draft") }),
    );

    route(ids.form, "POST", async (request, reply) => {
      const locale = request.locale;
      const values = form.values(request.body);
      const wait = await overClientLimit(postLimit, request, reply, `${kind} form`);
      if (wait !== undefined)
        return showForm(request, reply, { values, notice: limitedNotice(request, wait) }, 429);
      const errors = await contractFormErrors(kind, values, i18n.t[locale], locale, today());
      if (errors.length > 0) return showForm(request, reply, { values, errors }, 422);
      writeContractCookie(reply, kind, "draft", values);
      return reply.redirect(i18n.routes.pathFor(ids.check, locale), 303);
    });

    /** The draft, when it is still one the form accepts; else the form is where to go. */
    const validDraft = async (request: FastifyRequest) => {
      const draft = readContractCookie<FormValues>(request, kind, "draft");
      if (!draft) return undefined;
      const values = form.values(draft);
      const errors = await contractFormErrors(kind, values, i18n.t[request.locale], request.locale, today());
      return { values, errors };
    };

    route(ids.check, "GET", async (request, reply) => {
      const draft = await validDraft(request);
      if (!draft || draft.errors.length > 0)
        return reply.redirect(i18n.routes.pathFor(ids.form, request.locale), 303);
      return showCheck(request, reply, draft.values);
    });

    route(ids.check, "POST", async (request, reply) => {
      const locale = request.locale;
      const draft = await validDraft(request);
      if (!draft) return reply.redirect(i18n.routes.pathFor(ids.form, locale), 303);
      // A day asked for that has passed since the form (a check page left open overnight).
      if (draft.errors.length > 0) return showForm(request, reply, draft, 422);
      const wait =
        (await overClientLimit(postLimit, request, reply, `${kind} check`)) ??
        (await overClientLimit(sendLimit, request, reply, `${kind} request`));
      if (wait !== undefined)
        return showCheck(request, reply, draft.values, limitedNotice(request, wait), 429);
      const at = services.now();
      const origin = originOf(request, services);
      let received: Awaited<ReturnType<typeof receiveContractRequest>>;
      try {
        received = await receiveContractRequest(deps, requestOf(draft.values, locale), at, {
          confirm: (token, mailLocale) =>
            `${origin}${i18n.routes.pathFor(ids.confirm, mailLocale, { token })}`,
          cancelForm: (mailLocale) => `${origin}${i18n.routes.pathFor(routeIds.cancel.form, mailLocale)}`,
        });
      } catch (err) {
        request.log.error({ err }, `${kind} request not stored`);
        return showCheck(request, reply, draft.values, i18n.t[locale]("contractForms.failed"), 503);
      }
      if (received.kind === "over-limit") {
        reply.header("retry-after", "3600");
        request.log.info(`${kind} request: address over its limit`);
        return showCheck(request, reply, draft.values, limitedNotice(request, 3600), 429);
      }
      services.mailQueued();
      clearContractCookie(reply, kind, "draft");
      writeContractCookie(reply, kind, "sent", { values: draft.values, receivedAt: at.toISOString() });
      return reply.redirect(i18n.routes.pathFor(ids.received, locale), 303);
    });

    route(ids.received, "GET", async (request, reply) => {
      const locale = request.locale;
      const sent = readContractCookie<SentRequest>(request, kind, "sent");
      if (!sent || typeof sent.receivedAt !== "string" || Number.isNaN(Date.parse(sent.receivedAt)))
        return reply.redirect(i18n.routes.pathFor(ids.form, locale), 303);
      const t = i18n.t[locale];
      const values = form.values(sent.values);
      reply.header("cache-control", "private, no-store");
      return reply.page(
        "pages/contract-received",
        {
          title: text(locale, "receivedTitle"),
          description: text(locale, "description"),
          received: {
            kind,
            at: receivedText(sent.receivedAt, locale),
            email: (values.email ?? "").trim(),
            summary: contractSummary(t, locale, requestOf(values, locale)),
            days: contractLinkDays,
          },
        },
        { noindex: true },
      );
    });

    const linkProblem = (request: FastifyRequest, reply: FastifyReply, status: 404 | 410) => {
      const locale = request.locale;
      reply.header("cache-control", "private, no-store");
      return reply.page(
        "pages/link-problem",
        {
          title: text(locale, "linkProblemTitle"),
          heading: text(locale, "linkProblemTitle"),
          message: text(locale, "linkProblem", { days: contractLinkDays }),
          action: { href: i18n.routes.pathFor(ids.form, locale), text: text(locale, "again") },
        },
        { status, noindex: true },
      );
    };

    const outcomeText = (locale: Locale, outcome: ConfirmOutcome) => {
      const t = i18n.t[locale];
      const date = (day: string | undefined) => (day ? mailDate(day, locale) : "");
      switch (outcome.kind) {
        case "cancelled":
          return outcome.refundCents
            ? t("contractForms.outcome.cancelledRefunded", {
                end: date(outcome.endsOn),
                refund: formatPrice(outcome.refundCents, locale),
              })
            : t("contractForms.outcome.cancelled", { end: date(outcome.endsOn) });
        case "already-cancelled":
          return t("contractForms.outcome.alreadyCancelled", { end: date(outcome.endsOn) });
        case "withdrawn":
          return t("contractForms.outcome.withdrawn", { refund: formatPrice(outcome.refundCents, locale) });
        case "already-withdrawn":
          return t("contractForms.outcome.alreadyWithdrawn");
        case "late":
          return t("contractForms.outcome.late", { deadline: date(outcome.deadline) });
        case "ended":
          return t("contractForms.outcome.ended");
      }
    };

    const showOutcome = (request: FastifyRequest, reply: FastifyReply, outcome: ConfirmOutcome) => {
      const locale = request.locale;
      reply.header("cache-control", "private, no-store");
      return reply.page(
        "pages/contract-link",
        {
          title: text(locale, "doneTitle"),
          description: text(locale, "description"),
          link: { kind, heading: text(locale, "doneTitle"), outcome: outcomeText(locale, outcome) },
        },
        { noindex: true },
      );
    };

    // Opening the link changes nothing (mail scanners open links too): its page has the button.
    route(ids.confirm, "GET", async (request, reply) => {
      const { token } = request.params as { token: string };
      const state = await contractLink(deps, kind, token, services.now());
      if (state.state === "unknown") return linkProblem(request, reply, 404);
      if (state.state === "expired") return linkProblem(request, reply, 410);
      if (state.state === "used") return showOutcome(request, reply, state.outcome);
      const locale = request.locale;
      const t = i18n.t[locale];
      reply.header("cache-control", "private, no-store");
      return reply.page(
        "pages/contract-link",
        {
          title: text(locale, "linkTitle"),
          description: text(locale, "description"),
          link: {
            kind,
            heading: text(locale, "linkTitle"),
            intro: text(locale, "linkIntro", { received: receivedText(state.request.receivedAt, locale) }),
            summary: contractSummary(t, locale, state.request),
            action: i18n.routes.pathFor(ids.confirm, locale, { token }),
          },
        },
        { noindex: true },
      );
    });

    route(ids.confirm, "POST", async (request, reply) => {
      const { token } = request.params as { token: string };
      const at = services.now();
      const result =
        kind === "cancel"
          ? await confirmCancellation(
              { ...deps, supportEmail: config.supportEmail, provider: services.payments, log: request.log },
              token,
              at,
            )
          : await confirmWithdrawal(
              { ...deps, provider: services.payments, log: request.log, now: services.now },
              token,
              at,
            );
      if (result.kind === "unknown") return linkProblem(request, reply, 404);
      if (result.kind === "expired") return linkProblem(request, reply, 410);
      if (result.kind === "unavailable") {
        const locale = request.locale;
        reply.header("cache-control", "private, no-store");
        return reply.page(
          "pages/link-problem",
          {
            title: text(locale, "unavailableTitle"),
            heading: text(locale, "unavailableTitle"),
            message: text(locale, "unavailable"),
            action: {
              href: i18n.routes.pathFor(ids.confirm, locale, { token }),
              text: text(locale, "tryAgain"),
            },
          },
          { status: 503, noindex: true },
        );
      }
      services.mailQueued();
      // After the post, its page: the link's own address now shows what it did.
      return reply.redirect(i18n.routes.pathFor(ids.confirm, request.locale, { token }), 303);
    });
  }
}
