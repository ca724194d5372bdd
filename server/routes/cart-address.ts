import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type CheckoutStep, checkoutSteps, redirectFor } from "../domain/checkout-steps.ts";
import { addressForm, addressValues, toDeliveryAddress } from "../forms/address-form.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { writeCartId } from "../http/cart-cookie.ts";
import { overClientLimit, retryText } from "../http/client-limits.ts";
import { type LiveRoutes, localizedRoute } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";
import { checkPostcode } from "./remote-checks.ts";
import { checkoutState, loadShopperCart } from "./shopper-cart.ts";

interface AddressPageState {
  values: FormValues;
  errors?: FieldError[];
  /** The address could not be saved (the database is down): everything typed stays. */
  saveFailed?: boolean;
  /** Too many addresses saved from this client lately: why, and when to try again. */
  rateLimited?: string;
}

/**
 * The address step: one form (server/forms/address-form.ts), saved on the cart. It needs
 * a cart with something to order; a valid address goes on to the overview (303), an
 * invalid one comes back with its messages and every value as typed (422).
 */
export function cartAddressRoutes(app: FastifyInstance, services: Services, live: LiveRoutes): void {
  const { carts, i18n } = services;
  const path = (request: FastifyRequest, id: CheckoutStep) => i18n.routes.pathFor(id, request.locale);

  const showForm = (request: FastifyRequest, reply: FastifyReply, state: AddressPageState, status = 200) => {
    const t = i18n.t[request.locale];
    reply.header("cache-control", "private, no-store");
    return reply.page(
      "pages/cart-address",
      {
        title: t("address.title"),
        form: addressForm,
        values: state.values,
        errors: state.errors ?? [],
        saveFailed: state.saveFailed ?? false,
        rateLimited: state.rateLimited ?? "",
        checkoutSteps,
      },
      { noindex: true, status },
    );
  };

  localizedRoute(app, i18n.routes, live, "cartAddress", "GET", async (request, reply) => {
    const cart = await loadShopperCart(services, request);
    const elsewhere = redirectFor("cartAddress", checkoutState(cart));
    if (elsewhere) return reply.redirect(path(request, elsewhere), 303);
    return showForm(request, reply, { values: addressValues(cart.address, request.locale) });
  });

  localizedRoute(app, i18n.routes, live, "cartAddress", "POST", async (request, reply) => {
    const t = i18n.t[request.locale];
    const values = addressForm.values(request.body);
    /** Nothing typed is lost: the form comes back whole, with what went wrong and who can help. */
    const saveFailed = (err: unknown) => {
      request.log.error({ err }, "address could not be saved");
      return showForm(request, reply, { values, saveFailed: true }, 503);
    };
    // The step's guard comes first: with nothing to order, no address (valid or not) is asked for.
    let cartId: string;
    try {
      const cart = await loadShopperCart(services, request);
      const elsewhere = redirectFor("cartAddress", checkoutState(cart));
      if (elsewhere || !cart.cartId) return reply.redirect(path(request, elsewhere ?? "cartContents"), 303);
      cartId = cart.cartId;
    } catch (err) {
      return saveFailed(err);
    }
    const errors = await addressForm.validate(
      values,
      t,
      async (field, all) => (field === "postcode" ? checkPostcode(all, t) : true),
      request.locale,
    );
    if (errors.length > 0) return showForm(request, reply, { values, errors }, 422);
    // Saves count against the client's limit (ADDRESS_RATE_LIMIT per 10 minutes); posts the
    // form refuses store nothing, so mistakes corrected without JavaScript do not count.
    const wait = await overClientLimit(services.limits.addresses, request, reply, "delivery address");
    if (wait !== undefined) {
      return showForm(
        request,
        reply,
        { values, rateLimited: t("address.rateLimited", { retry: retryText(t, wait) }) },
        429,
      );
    }
    try {
      await carts.saveAddress(cartId, toDeliveryAddress(values));
    } catch (err) {
      return saveFailed(err);
    }
    writeCartId(reply, cartId);
    return reply.redirect(path(request, "cartOverview"), 303);
  });
}
