import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { orderPagePath } from "../domain/order-link.ts";
import { orderNumber } from "../domain/order-number.ts";
import { writeFlash } from "../http/cookies/flash-cookie.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { originOf } from "../http/rendering/origin.ts";
import { requireAccount } from "../http/security/account-guard.ts";
import type { Services } from "../http/services.ts";
import { orderClaimLinkHours, orderClaimMail } from "../mail/order-claim-mail.ts";
import { openOrder, orderClaimFlash } from "./order-confirmation.ts";

/** Links to add a guest's order, mailed per account an hour: enough to retry, too few to flood an address. */
const claimMailsPerHour = 3;

/**
 * Adding a guest's order to the account signed in (ADR 0089). Signing in never moves an order:
 * the browser may have been someone else's a moment ago. From the guest order's page (opened
 * by its own link) the account asks; a link goes to the order's own address; its page's button,
 * pressed while signed in to that same account, adds the order. So an account gets a guest's
 * order only when it can read that order's mail.
 */
export function orderClaimRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, accounts } = services;

  route("orderClaim", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const own = await openOrder(services, request);
    if (!own) return reply.callNotFound();
    const { order } = own;
    const locale = request.locale;
    const page = orderPagePath(i18n.routes, locale, order.id, services.config.cookieSecret);
    // Already an account's (this one's, or taken meanwhile): its page says where it stands.
    if (order.accountId) return reply.redirect(page, 303);
    const link = (token: string) =>
      `${originOf(request, services)}${i18n.routes.pathFor("orderClaimConfirm", order.locale, { token })}`;
    const issued = await accounts.issueToken(
      session.account.id,
      "claim-order",
      (token) => orderClaimMail(i18n.t[order.locale], order, session.account, link(token)),
      { at: services.now(), perHour: claimMailsPerHour, orderId: order.id },
    );
    if (issued) services.mailQueued();
    writeFlash(reply, orderClaimFlash, issued ? { email: order.address.email } : { refused: true });
    return reply.redirect(page, 303);
  });

  const linkProblem = (request: FastifyRequest, reply: FastifyReply, status: 404 | 410) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/link-problem",
      {
        title: t("orderClaimConfirm.invalidTitle"),
        heading: t("orderClaimConfirm.invalidTitle"),
        message: t("orderClaimConfirm.invalid", { hours: orderClaimLinkHours }),
        action: {
          href: i18n.routes.pathFor("accountOrders", request.locale),
          text: t("account.orders.title"),
        },
      },
      { status, noindex: true },
    );
  };

  // Opening the link changes nothing (mail scanners open links too): its page has the button.
  route("orderClaimConfirm", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const { token } = request.params as { token: string };
    const link = await accounts.tokenLink(token, "claim-order", services.now(), orderClaimLinkHours);
    if (link.state !== "valid" || link.orderId === undefined) {
      return linkProblem(request, reply, link.state === "spent" ? 410 : 404);
    }
    // A link asked for by another account is of no use in this one.
    if (link.account.id !== session.account.id) return linkProblem(request, reply, 404);
    const t = i18n.t[request.locale];
    return reply.page(
      "pages/order-claim-confirm",
      {
        title: t("orderClaimConfirm.title"),
        claim: {
          action: i18n.routes.pathFor("orderClaimConfirm", request.locale, { token }),
          summary: t("orderClaimConfirm.summary", {
            number: orderNumber(link.orderId),
            account: session.account.email,
          }),
        },
      },
      { noindex: true },
    );
  });

  route("orderClaimConfirm", "POST", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    const { token } = request.params as { token: string };
    const at = services.now();
    const link = await accounts.tokenLink(token, "claim-order", at, orderClaimLinkHours);
    if (link.state !== "valid" || link.account.id !== session.account.id) {
      return linkProblem(request, reply, link.state === "spent" ? 410 : 404);
    }
    const added = await accounts.redeemToken(
      token,
      "claim-order",
      at,
      orderClaimLinkHours,
      async (trx, account, _newEmail, orderId) => {
        if (orderId === undefined || account.id !== session.account.id) return undefined;
        // Taken by an account meanwhile: it stays that account's.
        const result = await trx
          .updateTable("orders")
          .set({ account_id: account.id })
          .where("id", "=", orderId)
          .where("account_id", "is", null)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) === 1 ? { orderId } : undefined;
      },
    );
    if (!added) return linkProblem(request, reply, 410);
    writeFlash(reply, orderClaimFlash, { added: true });
    return reply.redirect(
      i18n.routes.pathFor("orderConfirmation", request.locale, { number: orderNumber(added.orderId) }),
      303,
    );
  });
}
