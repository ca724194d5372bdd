import type { FastifyInstance } from "fastify";
import { keepSignedInPage } from "../accounts/keep-signed-in-page.ts";
import { localMoment, parseCutOff } from "../domain/delivery-times.ts";
import { awaitsPayment, isOrderStatus, isPaid } from "../domain/order-lifecycle.ts";
import { orderNumber } from "../domain/order-number.ts";
import { dispatchAfterPayment } from "../domain/order-production.ts";
import { isDeliveryCountry } from "../domain/postcode.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { requireAccount } from "../http/security/account-guard.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import { mailDate, mailWindow } from "../mail/order-confirmation.ts";
import type { OrderSummary } from "../store/order-repository.ts";

/**
 * "Mijn bestellingen": the account's orders, newest first, each with its status, its
 * payment and when it goes out; an unpaid one links to its page, which pays (again). The
 * order's own page (order-confirmation.ts) is its detail, for the account as for the cart
 * that placed it.
 */
export function accountOrdersRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, orders } = services;
  const cutOff = parseCutOff(services.config.orderCutOff);

  const dispatchOf = (order: OrderSummary, locale: Locale): string => {
    const t = i18n.t[locale];
    if (order.shippedAt) {
      return `${t("account.orders.shipped")} ${mailDate(localMoment(new Date(order.shippedAt)).date, locale)}`;
    }
    if (order.paidAt && isDeliveryCountry(order.country)) {
      const window = dispatchAfterPayment(new Date(order.paidAt), order.production, order.country, cutOff);
      return t("account.orders.dispatchExpected", { window: mailWindow(window, locale) });
    }
    return isOrderStatus(order.status) && awaitsPayment(order.status) ? t("account.orders.notYet") : "–";
  };

  route("accountOrders", "GET", async (request, reply) => {
    const session = await requireAccount(services, request, reply);
    if (!session) return reply;
    await keepSignedInPage(services, request, reply, session);
    const locale = request.locale;
    const t = i18n.t[locale];
    const list = await orders.listForAccount(session.account.id);
    return reply.page(
      "pages/account-orders",
      {
        title: t("account.orders.title"),
        orders: list.map((order) => {
          const number = orderNumber(order.id);
          const status = isOrderStatus(order.status) ? order.status : "awaiting_payment";
          return {
            number,
            href: i18n.routes.pathFor("orderConfirmation", locale, { number }),
            createdAt: order.createdAt,
            status: t(`order.status.${status}`),
            paid: isPaid(status),
            payable: awaitsPayment(status),
            totalCents: order.totalCents,
            dispatch: dispatchOf(order, locale),
          };
        }),
      },
      { noindex: true, keyedByData: true },
    );
  });
}
