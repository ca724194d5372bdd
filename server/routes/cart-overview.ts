import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { subscriberShown } from "../cart/cart-subscriber.ts";
import {
  checkoutState,
  lineViews,
  loadShopperCart,
  pricedCart,
  printsLeft,
  type ShopperCart,
} from "../cart/shopper-cart.ts";
import type { PricedLine } from "../domain/cart-pricing.ts";
import { checkoutFingerprint } from "../domain/checkout-fingerprint.ts";
import { type CheckoutStep, checkoutSteps, redirectFor } from "../domain/checkout-steps.ts";
import { addressLines } from "../domain/delivery-address.ts";
import { orderPagePath } from "../domain/order-link.ts";
import { orderProduction, type WorkingDays } from "../domain/order-production.ts";
import { cartShown, clockShown, type PageShows, pageShows } from "../http/caching/page-shows.ts";
import { readCartId, writeCartId } from "../http/cookies/cart-cookie.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import { workingDaysText } from "../i18n/product-texts.ts";
import type { RouteArgs, RouteId } from "../i18n/routes.ts";
import type { OrderDraft } from "../store/order-repository.ts";
import { payAndGo } from "./paying.ts";

/**
 * What the overview says about delivery: the production time in working days (the slowest
 * product sets it), then when the parcel is sent and delivered if ordered now, from the
 * same computation as the delivery-times overview. The dates are a nicety: when they cannot
 * be computed the production time still shows (partials/expected-delivery.eta).
 */
export interface ExpectedDelivery {
  production: WorkingDays;
  texts: string[];
}

export function expectedDelivery(
  services: Services,
  locale: Locale,
  lines: readonly PricedLine[],
  log?: FastifyBaseLogger,
): ExpectedDelivery {
  const t = services.i18n.t[locale];
  const products = lines.filter((l) => l.orderable).map((l) => l.product);
  const production = orderProduction(products);
  const texts = [t("overview.production", { days: workingDaysText(t, production) })];
  try {
    const dates = services.deliveryTimes.forCart(
      products.map((product) => ({ product })),
      locale,
      services.now(),
    );
    if (dates) {
      texts.push(
        t("deliveryTimes.productSent", { window: dates.sent }),
        t("deliveryTimes.expectedDelivery", { window: dates.delivered }),
        dates.orderBefore,
      );
    }
  } catch (err) {
    log?.error({ err }, "expected delivery dates could not be computed");
  }
  return { production, texts };
}

/** The place-order form's key: 128 random bits, so one overview is one order however often it is posted. */
const newOrderKey = () => randomBytes(16).toString("base64url");
const orderKeyPattern = /^[\w-]{22}$/;

type Refusal = { step: CheckoutStep } | { changed: true };

/**
 * The overview step and placing the order. The overview needs a cart with something to
 * order and an address. Its form carries an idempotency key and a fingerprint of what it
 * showed: the order is placed only for exactly that, once, however often it is posted.
 * The order is stored awaiting payment and the shopper goes straight on to pay it; a
 * repeated post finds the same order and its open payment (orderPayments.start).
 */
export function cartOverviewRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { i18n, orders } = services;
  const path = <Id extends RouteId>(request: FastifyRequest, id: Id, ...params: RouteArgs<Id>) =>
    i18n.routes.pathFor(id, request.locale, ...params);

  const showOverview = (
    request: FastifyRequest,
    reply: FastifyReply,
    cart: ShopperCart,
    notice?: string,
    /** For a plain look: names what the page shows of the shopper, to keep it under (pages.ts). */
    shows?: PageShows,
  ) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const address = cart.address;
    const countryName = t(`fields.countries.${cart.totals.country}`);
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/cart-overview",
      {
        title: t("overview.title"),
        lines: lineViews(services, locale, cart.lines, cart.projects).map((view) => ({
          ...view,
          image: view.line.product.image,
        })),
        totals: cart.totals,
        printsLeft: printsLeft(cart),
        countryName,
        address,
        addressLines: address ? addressLines(address, countryName) : [],
        delivery: expectedDelivery(services, locale, cart.lines, request.log),
        orderKey: newOrderKey(),
        fingerprint: checkoutFingerprint(cart.lines, address, cart.totals),
        notice,
        checkoutSteps,
      },
      { noindex: true, status: notice ? 422 : 200, shows },
    );
  };

  route("cartOverview", "GET", async (request, reply) => {
    // The cart at its revision, and the part of the day (its delivery dates). Its order key
    // too stays while they do: the same cart is the same order.
    const shownCart = await cartShown(services.carts, request);
    const period = clockShown("period", () => services.deliveryTimes.period(services.now()));
    // Signed in, the totals may hold what the account's subscription takes off.
    const session = await request.signedIn();
    const subscriber = session ? subscriberShown(services, session) : [];
    const cart = await loadShopperCart(services, request);
    const elsewhere = redirectFor("cartOverview", checkoutState(cart));
    if (elsewhere) return reply.redirect(path(request, elsewhere), 303);
    const shows = shownCart && pageShows(shownCart, period, ...subscriber);
    return showOverview(request, reply, cart, undefined, shows);
  });

  route("cartOverview", "POST", async (request, reply) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const body = (request.body ?? {}) as Record<string, unknown>;
    const key = typeof body.orderKey === "string" ? body.orderKey : "";
    const fingerprint = typeof body.fingerprint === "string" ? body.fingerprint : "";
    const cartId = readCartId(request);
    /** The overview again, as it is now, with a fresh key: the shopper checks and places it again. */
    const changed = async () => {
      const cart = await loadShopperCart(services, request);
      const elsewhere = redirectFor("cartOverview", checkoutState(cart));
      if (elsewhere) return reply.redirect(path(request, elsewhere), 303);
      return showOverview(request, reply, cart, t("overview.changed"));
    };
    if (!cartId) return reply.redirect(path(request, "cartContents"), 303);
    if (!orderKeyPattern.test(key)) return changed();

    // Read before the transaction: a photo book whose last photo went since the overview is refused.
    // A subscriber's free prints are counted again inside the transaction (freePrintsUsed).
    const { projects, subscriber } = await loadShopperCart(services, request);
    // Signed in: the order is the account's from the start.
    const session = await request.signedIn();
    const result = await orders.place<Refusal>(
      cartId,
      key,
      (snapshot) => {
        const used = snapshot.freePrintsUsed;
        const allowance = subscriber && used !== undefined ? subscriber.allowanceAfter(used) : undefined;
        const cart = pricedCart(services, locale, cartId, snapshot.lines, snapshot.address, {
          projects,
          subscriber,
          allowance,
        });
        const elsewhere = redirectFor("cartOverview", checkoutState(cart));
        if (elsewhere || !cart.address) return { refused: { step: elsewhere ?? "cartAddress" } };
        if (checkoutFingerprint(cart.lines, cart.address, cart.totals) !== fingerprint) {
          return { refused: { changed: true } };
        }
        const ordered = cart.lines.filter((l) => l.orderable);
        const benefits = cart.totals.subscriber;
        const draft: OrderDraft = {
          locale,
          address: cart.address,
          lines: ordered.map((l) => ({
            productId: l.productId,
            orientation: l.orientation,
            sizeId: l.sizeId,
            productName: l.product.name[locale],
            quantity: l.quantity,
            unitCents: l.unitCents,
            totalCents: l.totalCents,
            ...(l.projectId ? { projectId: l.projectId } : {}),
          })),
          subtotalCents: cart.totals.subtotalCents,
          ...(subscriber &&
            benefits.totalCents > 0 && {
              subscriber: {
                subscriptionId: subscriber.subscriptionId,
                period: subscriber.period,
                freePrints: benefits.freePrints,
                freePrintsCents: benefits.freePrintsCents,
                photoBookDiscount: benefits.photoBookDiscount,
                photoBookDiscountCents: benefits.photoBookDiscountCents,
              },
            }),
          shippingCents: cart.totals.shippingCents,
          vatRate: cart.totals.vatRate,
          vatCents: cart.totals.vatCents,
          totalCents: cart.totals.totalCents,
          production: orderProduction(ordered.map((l) => l.product)),
        };
        // No mail yet: the confirmation goes out when the payment is received (order-payments.ts).
        return { draft };
      },
      {
        ...(session && { accountId: session.account.id }),
        ...(subscriber && {
          subscriber: { subscriptionId: subscriber.subscriptionId, period: subscriber.period },
        }),
      },
    );

    switch (result.kind) {
      case "placed":
      case "existing": {
        // Placed once: posting the same overview again finds the order, and counts nothing.
        if (result.kind === "placed") services.counters.count("funnel.order_placed", locale);
        writeCartId(reply, cartId);
        // The order page opens by its own secret (or the account's session), never by the cart cookie.
        const orderPage = orderPagePath(i18n.routes, locale, result.orderId, services.config.cookieSecret);
        // Paying starts at once; an order already paid (a replayed post) just shows its page.
        const start = (options: { origin: string }) => services.orderPayments.start(result.orderId, options);
        return payAndGo(services, request, reply, start, orderPage);
      }
      case "foreign-key":
        return changed();
      case "refused":
        if ("step" in result.reason) return reply.redirect(path(request, result.reason.step), 303);
        return changed();
    }
  });
}
