import type { FastifyInstance, FastifyRequest } from "fastify";
import type { PaymentState } from "../../islands/payment-status/contract.ts";
import { addressLines } from "../domain/delivery-address.ts";
import { awaitsPayment, isOrderStatus, isPaid, type OrderStatus } from "../domain/order-lifecycle.ts";
import { orderIdOf, orderNumber } from "../domain/order-number.ts";
import { readCartId } from "../http/cart-cookie.ts";
import { type LiveRoutes, localizedRoute } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";
import { choiceText, workingDaysText } from "../i18n/product-texts.ts";
import type { PaymentStatus } from "../payments/provider.ts";
import { chosenMethod, methodsFor, payAndGo, paymentProgress, takePaymentNotice } from "./paying.ts";

/** Where the order stands with paying, from its status and its latest payment. */
export function paymentState(
  status: OrderStatus,
  payment: { status: PaymentStatus } | undefined,
): PaymentState {
  if (isPaid(status)) return "paid";
  if (status === "cancelled" || status === "expired") return status;
  return paymentProgress(payment);
}

/**
 * The order page: where the order redirects after placing and where the provider sends the
 * shopper back. It shows the order only to the browser whose cart placed it (the signed cart
 * cookie); to anyone else the address does not exist. The return redirect proves nothing:
 * the page asks the provider (orderPayments.latest) before it says anything about paying.
 */
export function orderConfirmationRoutes(app: FastifyInstance, services: Services, live: LiveRoutes): void {
  const { i18n, orders, orderPayments } = services;

  /** The order this browser placed under the address's number, or undefined. */
  const ownOrder = async (request: FastifyRequest) => {
    const { number } = request.params as { number: string };
    const orderId = orderIdOf(number);
    const cartId = readCartId(request);
    const order = orderId !== undefined && cartId ? await orders.find(orderId, cartId) : undefined;
    return order && cartId ? { order, cartId } : undefined;
  };

  localizedRoute(app, i18n.routes, live, "orderConfirmation", "GET", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const own = await ownOrder(request);
    if (!own) return reply.callNotFound();
    let { order } = own;
    const notice = takePaymentNotice(request, reply);
    let payment: { status: PaymentStatus } | undefined;
    try {
      payment = await orderPayments.latest(order.id);
    } catch (err) {
      // The provider cannot say now: the page shows what the shop knows, the island asks again.
      request.log.warn({ err, orderId: order.id }, "payment status could not be fetched");
    }
    // Asking may just have applied the payment: the status shown is the one after it.
    if (payment) order = (await orders.find(order.id, own.cartId)) ?? order;
    const status: OrderStatus = isOrderStatus(order.status) ? order.status : "awaiting_payment";
    const state = paymentState(status, payment);
    const url = i18n.routes.pathFor("orderConfirmation", locale, { number: orderNumber(order.id) });
    const methods = awaitsPayment(status)
      ? await methodsFor(services, request, order.totalCents, locale)
      : [];

    const countryName = t(`fields.countries.${order.address.country}`);
    const projectIds = order.lines.flatMap((line) => (line.projectId ? [line.projectId] : []));
    const projects = projectIds.length > 0 ? await services.projects.summaries(projectIds) : new Map();
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/order-confirmation",
      {
        title: t("order.title"),
        order,
        orderNumber: orderNumber(order.id),
        paymentStatus: {
          url,
          state,
          orderStatus: status,
          amountCents: order.totalCents,
          email: order.address.email,
          ...(notice ? { notice } : {}),
          methods: methods.map(({ id, description }) => ({ id, description })),
        },
        // Names in the page's language where the product still exists; else as ordered.
        lines: order.lines.map((line) => {
          const product = services.catalogue.product(line.productId);
          const project = line.projectId ? projects.get(line.projectId) : undefined;
          return {
            line,
            name: product?.name[locale] ?? line.productName,
            image: product?.image,
            choice: choiceText(t, line),
            ...(project && {
              project: {
                text: t("editor.cart.line", {
                  photos: t("editor.cart.photos", { count: project.photoCount }),
                }),
              },
            }),
          };
        }),
        totals: { ...order, country: order.address.country },
        countryName,
        addressLines: addressLines(order.address, countryName),
        production: t("overview.production", { days: workingDaysText(t, order.production) }),
      },
      { noindex: true, fragment: "partials/payment-status" },
    );
  });

  // "Betaal opnieuw": a new payment for the same order (or its open one), with the chosen method.
  localizedRoute(app, i18n.routes, live, "orderConfirmation", "POST", async (request, reply) => {
    const locale = request.locale;
    const own = await ownOrder(request);
    if (!own) return reply.callNotFound();
    const { order } = own;
    const orderPage = i18n.routes.pathFor("orderConfirmation", locale, { number: orderNumber(order.id) });
    const method = await chosenMethod(services, request, order.totalCents);
    const start = (options: { origin: string; method?: string }) => orderPayments.start(order.id, options);
    return payAndGo(services, request, reply, start, orderPage, method);
  });
}
