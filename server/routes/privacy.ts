import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { eraseAccount, exportAccount } from "../accounts/account-data.ts";
import { signOutBrowser } from "../accounts/browser-session.ts";
import { checkCurrentPassword } from "../accounts/current-password.ts";
import { keepSignedInPage } from "../accounts/keep-signed-in-page.ts";
import type { RefusalNotice } from "../accounts/password-back-off.ts";
import { accountDeleteForm } from "../forms/account-forms.ts";
import type { FieldError } from "../forms/form.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { requireAccount } from "../http/security/account-guard.ts";
import type { Services } from "../http/services.ts";
import { accountDeletedMail } from "../mail/account-mails.ts";

/**
 * Privacy for an account: its data to download and the way to delete it
 * (server/accounts/account-data.ts), with its password as the proof. The statement for
 * everyone is a legal page (server/routes/legal.ts, content/legal/<locale>/privacy.md).
 */
export function privacyRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, config } = services;

  const showPrivacy = (
    request: FastifyRequest,
    reply: FastifyReply,
    errors: FieldError[] = [],
    problem?: RefusalNotice,
    status = 200,
  ) => {
    const t = i18n.t[request.locale];
    return reply.page(
      "pages/account-privacy",
      {
        title: t("account.privacy.title"),
        accountForm: {
          form: accountDeleteForm,
          action: i18n.routes.pathFor("accountDelete", request.locale),
          values: {},
          errors,
          submit: t("account.privacy.deleteSubmit"),
          notice: problem?.notice,
          noticeLink: problem?.noticeLink,
        },
      },
      { status, noindex: true, keyedByData: true },
    );
  };

  route("accountPrivacy", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    await keepSignedInPage(services, request, reply, session);
    return showPrivacy(request, reply);
  });

  route("accountExport", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const data = await exportAccount(services, session.account);
    const name = request.locale === "de" ? "fotohoek-meine-daten.json" : "fotohoek-mijn-gegevens.json";
    reply.header("content-disposition", `attachment; filename="${name}"`);
    return reply.type("application/json; charset=utf-8").send(JSON.stringify(data, null, 2));
  });

  // A refused deletion shows this address; a visit (the language switcher) lands on the page.
  route("accountDelete", "GET", async (request, reply) =>
    reply.redirect(i18n.routes.pathFor("accountPrivacy", request.locale), 303),
  );

  route("accountDelete", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const locale = request.locale;
    const t = i18n.t[locale];
    const values = accountDeleteForm.values(request.body);
    const errors = await accountDeleteForm.validate(values, t, undefined, locale);
    if (errors.length > 0) return showPrivacy(request, reply, errors, undefined, 422);
    const problem = await checkCurrentPassword(
      services,
      request,
      reply,
      session.account,
      values.currentPassword ?? "",
    );
    if (problem)
      return showPrivacy(request, reply, problem.form.errors, problem.form.refusal, problem.status);
    const goodbye = accountDeletedMail(t, locale, session.account.email, config.supportEmail);
    const result = await eraseAccount(services, session.account, goodbye, request.log);
    if (result.kind === "blocked") {
      return showPrivacy(
        request,
        reply,
        [],
        { notice: t("account.privacy.deleteBlocked", { number: result.orderNumber }) },
        409,
      );
    }
    // The sessions went with the account; the browser's cookies go too.
    await signOutBrowser(services, request, reply);
    return reply.page(
      "pages/link-problem",
      {
        title: t("account.privacy.deletedTitle"),
        heading: t("account.privacy.deletedTitle"),
        message: t("account.privacy.deleted"),
        action: { href: i18n.routes.pathFor("home", locale), text: t("cart.continueShopping") },
      },
      { noindex: true },
    );
  });
}
