import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PaymentState } from "../../islands/payment-status/contract.ts";
import { addressLines } from "../domain/delivery-address.ts";
import { type DayWindow, localMoment, parseCutOff } from "../domain/delivery-times.ts";
import { awaitsPayment, isOrderStatus, isPaid, type OrderStatus } from "../domain/order-lifecycle.ts";
import { orderLinkHolds, orderLinkParameter, orderPagePath } from "../domain/order-link.ts";
import { orderIdOf, orderNumber } from "../domain/order-number.ts";
import { deliveryAfterDispatch, dispatchAfterPayment } from "../domain/order-production.ts";
import { hashPassword } from "../domain/password-hash.ts";
import { saveDetailsForm } from "../forms/account-forms.ts";
import type { FieldError } from "../forms/form.ts";
import { digest } from "../http/caching/digest.ts";
import {
  accountShown,
  headerCountShown,
  type PageShows,
  pageShows,
  type Shown,
  shopperShown,
} from "../http/caching/page-shows.ts";
import { takeFlash } from "../http/cookies/flash-cookie.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import { choiceText, workingDaysText } from "../i18n/product-texts.ts";
import { mailDate, mailWindow } from "../mail/order-confirmation.ts";
import type { PaymentStatus } from "../payments/provider.ts";
import { orderLifecycleRepository } from "../store/order-lifecycle-repository.ts";
import type { Order, OrderStanding } from "../store/order-repository.ts";
import type { PhotoProject } from "../store/photo-project-repository.ts";
import { requestAccount } from "./account-create.ts";
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

/** The flash the order page reads after its claim link was mailed (order-claim.ts). */
export const orderClaimFlash = "order-claim";

/**
 * The order under the address's number, for the account it belongs to (signed in) or for a
 * link that holds the order's own secret (domain/order-link.ts: the return from paying, the
 * confirmation mail); else undefined. Never by a cookie: one browser may serve several
 * people (ADR 0089). `reread` reads it again the same way.
 */
export async function openOrder(services: Services, request: FastifyRequest) {
  const { number } = request.params as { number: string };
  const orderId = orderIdOf(number);
  if (orderId === undefined) return undefined;
  const code = (request.query as Record<string, unknown> | undefined)?.[orderLinkParameter];
  const byLink = orderLinkHolds(services.config.cookieSecret, orderId, code);
  const session = await request.signedIn();
  const read = async () =>
    (session ? await services.orders.findForAccount(orderId, session.account.id) : undefined) ??
    (byLink ? await services.orders.get(orderId) : undefined);
  const order = await read();
  return order ? { order, reread: read, session, signedIn: session !== undefined } : undefined;
}

/**
 * The order page: where the order redirects after placing and where the provider sends the
 * shopper back, both with the order's secret in the address (openOrder); to anyone else the
 * address does not exist. The return redirect proves nothing: the page asks the provider
 * (orderPayments.latest) before it says anything about paying.
 */
export function orderConfirmationRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
): void {
  const route = routes.on(app);
  const { i18n, orders, orderPayments } = services;

  const ownOrder = (request: FastifyRequest) => openOrder(services, request);
  const secret = services.config.cookieSecret;

  /**
   * When a paid order goes out, or went, and when it is expected at the door: from the
   * moments its life stored.
   */
  const dispatchTexts = async (order: Order, status: OrderStatus, locale: Locale) => {
    const t = i18n.t[locale];
    if (!isPaid(status)) return {};
    const transitions = await orderLifecycleRepository(services.database.db).transitionsOf(order.id);
    const country = order.address.country;
    const expected = (dispatch: DayWindow) =>
      t("order.deliveryExpected", { window: mailWindow(deliveryAfterDispatch(dispatch, country), locale) });
    const shipped = transitions.find((step) => step.to === "shipped");
    if (shipped) {
      const on = localMoment(new Date(shipped.at)).date;
      return {
        dispatch: t("order.shippedOn", { date: mailDate(on, locale) }),
        delivery: expected({ from: on, to: on }),
      };
    }
    const paid = transitions.find((step) => step.to === "paid");
    if (!paid) return {};
    const cutOff = parseCutOff(services.config.orderCutOff);
    const window = dispatchAfterPayment(new Date(paid.at), order.production, country, cutOff);
    return {
      dispatch: t("order.dispatchExpected", { window: mailWindow(window, locale) }),
      delivery: expected(window),
    };
  };

  const projectsOf = async (order: Order) => {
    const projectIds = order.lines.flatMap((line) => (line.projectId ? [line.projectId] : []));
    return projectIds.length > 0 ? await services.projects.summaries(projectIds) : new Map();
  };
  const orderShown = (order: Order, signedIn: boolean, projects: Map<unknown, unknown>) =>
    JSON.stringify([order.status, order.address, signedIn, [...projects]]);
  const standingShown = (order: OrderStanding) => JSON.stringify([order.status, order.address]);

  /**
   * What a paid order's page shows (page-shows.ts): the order's status and address (one
   * row, compared with what the page shows), its photo books (their owners' revisions,
   * migration 0015), the browser's account and the header's count. Undefined when the books
   * moved in the meantime: nothing is kept.
   */
  const orderPageShows = async (
    request: FastifyRequest,
    own: NonNullable<Awaited<ReturnType<typeof ownOrder>>>,
    order: Order,
    projects: Map<string, PhotoProject>,
  ): Promise<PageShows | undefined> => {
    const owners = [...new Set([...projects.values()].map((project) => project.ownerId))];
    const books = await Promise.all(owners.map((owner) => shopperShown(services.projects, owner)));
    // The books were read before their revisions and might have changed since: read again
    // after them, so a change in between keeps nothing rather than a page that misses it.
    const booksShown = (books: Map<string, PhotoProject>) => JSON.stringify([...books]);
    if (owners.length > 0 && booksShown(await projectsOf(order)) !== booksShown(projects)) return undefined;
    const shown = standingShown(order);
    const orderPart: Shown = {
      source: "order",
      name: `order ${order.id} ${digest(orderShown(order, own.signedIn, projects))}`,
      holds: {
        stored: async () => {
          const now = await orders.standing(order.id);
          return now !== undefined && standingShown(now) === shown;
        },
      },
    };
    return pageShows(
      orderPart,
      ...books,
      ...(own.session ? [accountShown(services.accounts, own.session, services.now)] : []),
      await headerCountShown(services.carts, request),
    );
  };

  /** What the order page says after its claim link was asked for, or used. */
  const claimNotice = (flash: { refused?: unknown; added?: unknown }, order: Order, locale: Locale) => {
    const t = i18n.t[locale];
    if (flash.added === true) return t("orderClaimConfirm.added", { number: orderNumber(order.id) });
    if (flash.refused === true) return t("order.claim.rateLimited");
    return t("order.claim.sent", { email: order.address.email });
  };

  const showOrder = async (
    request: FastifyRequest,
    reply: FastifyReply,
    own: NonNullable<Awaited<ReturnType<typeof ownOrder>>>,
    saveDetails: { errors: FieldError[] } = { errors: [] },
    code = 200,
  ) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    let { order } = own;
    const notice = takePaymentNotice(request, reply);
    const claimSent = takeFlash<{ refused?: unknown; added?: unknown }>(request, reply, orderClaimFlash);
    let payment: { status: PaymentStatus } | undefined;
    try {
      payment = await orderPayments.latest(order.id);
    } catch (err) {
      // The provider cannot say now: the page shows what the shop knows, the island asks again.
      request.log.warn({ err, orderId: order.id }, "payment status could not be fetched");
    }
    // Asking may just have applied the payment: the status shown is the one after it.
    if (payment) order = (await own.reread()) ?? order;
    const status: OrderStatus = isOrderStatus(order.status) ? order.status : "awaiting_payment";
    const state = paymentState(status, payment);
    const url = orderPagePath(i18n.routes, locale, order.id, secret);
    const withSecret = (path: string) => `${path}${url.slice(url.indexOf("?"))}`;
    const methods = awaitsPayment(status)
      ? await methodsFor(services, request, order.totalCents, locale)
      : [];

    const countryName = t(`fields.countries.${order.address.country}`);
    const projects = await projectsOf(order);
    // Once paid the page changes only with the order itself (its next step, an anonymised
    // address), its photo books' photos and the browser signing in or out: while none of that
    // changed, the same browser asking again gets the page as sent (ready-answers.ts). Before
    // payment the provider is asked on every visit, so nothing is kept.
    const keep = code === 200 && !notice && !claimSent && isPaid(status);
    const shows = keep ? await orderPageShows(request, own, order, projects) : undefined;
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
        ...(await dispatchTexts(order, status, locale)),
        // Signed in, a guest's order: the account may take it once the order's address confirms.
        claim:
          own.signedIn && (!order.accountId || claimSent?.added === true)
            ? {
                intro: t("order.claim.intro", { email: order.address.email }),
                action: withSecret(
                  i18n.routes.pathFor("orderClaim", locale, { number: orderNumber(order.id) }),
                ),
                ...(claimSent && { notice: claimNotice(claimSent, order, locale) }),
              }
            : undefined,
        // Not signed in: the order's address may become an account ("Bewaar je gegevens").
        saveDetails: own.signedIn
          ? undefined
          : {
              intro: t("order.saveDetails.intro", { email: order.address.email }),
              accountForm: {
                form: saveDetailsForm,
                action: withSecret(
                  i18n.routes.pathFor("saveDetails", locale, { number: orderNumber(order.id) }),
                ),
                values: {},
                errors: saveDetails.errors,
                submit: t("order.saveDetails.submit"),
              },
            },
      },
      {
        noindex: true,
        // The language switcher keeps the order's secret: the page opens by nothing else.
        alternateQuery: { nl: url.slice(url.indexOf("?") + 1), de: url.slice(url.indexOf("?") + 1) },
        fragment: "partials/payment-status",
        status: code,
        shows,
      },
    );
  };

  route("orderConfirmation", "GET", async (request, reply) => {
    const own = await ownOrder(request);
    if (!own) return reply.callNotFound();
    return showOrder(request, reply, own);
  });

  // A refused "Bewaar je gegevens" shows this address; a visit (the language switcher) lands on the order.
  route("saveDetails", "GET", async (request, reply) => {
    const { number } = request.params as { number: string };
    const code = (request.query as Record<string, unknown>)[orderLinkParameter];
    const page = i18n.routes.pathFor("orderConfirmation", request.locale, { number });
    const query = typeof code === "string" ? `?${new URLSearchParams({ [orderLinkParameter]: code })}` : "";
    return reply.redirect(`${page}${query}`, 303);
  });

  // "Bewaar je gegevens": the order's name and address become an account, once its link is used.
  route("saveDetails", "POST", async (request, reply) => {
    const own = await ownOrder(request);
    if (!own) return reply.callNotFound();
    const t = i18n.t[request.locale];
    if (own.signedIn) return reply.redirect(i18n.routes.pathFor("account", request.locale), 303);
    const values = saveDetailsForm.values(request.body);
    const errors = await saveDetailsForm.validate(values, t, undefined, request.locale);
    if (errors.length > 0) return showOrder(request, reply, own, { errors }, 422);
    const { order } = own;
    return requestAccount(services, request, reply, {
      name: order.address.name,
      email: order.address.email,
      passwordHash: await hashPassword(values.password ?? ""),
      orderId: order.id,
    });
  });

  // "Betaal opnieuw": a new payment for the same order (or its open one), with the chosen method.
  route("orderConfirmation", "POST", async (request, reply) => {
    const locale = request.locale;
    const own = await ownOrder(request);
    if (!own) return reply.callNotFound();
    const { order } = own;
    const orderPage = orderPagePath(i18n.routes, locale, order.id, secret);
    const method = await chosenMethod(services, request, order.totalCents);
    const start = (options: { origin: string; method?: string }) => orderPayments.start(order.id, options);
    return payAndGo(services, request, reply, start, orderPage, method);
  });
}
