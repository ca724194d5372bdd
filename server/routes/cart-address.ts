import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkoutState, loadShopperCart } from "../cart/shopper-cart.ts";
import { type CheckoutStep, checkoutSteps, redirectFor } from "../domain/checkout-steps.ts";
import { addressLines } from "../domain/delivery-address.ts";
import { addressForm, addressValues, toDeliveryAddress } from "../forms/address-form.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { accountShown, cartShown, type PageShows, pageShows } from "../http/caching/page-shows.ts";
import { writeCartId } from "../http/cookies/cart-cookie.ts";
import { overClientLimit, retryText } from "../http/limits/client-limits.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import type { Services } from "../http/services.ts";
import type { SavedAddress } from "../store/address-book-repository.ts";
import { checkPostcode } from "./remote-checks.ts";

interface AddressPageState {
  values: FormValues;
  errors?: FieldError[];
  /** The address could not be saved (the database is down): everything typed stays. */
  saveFailed?: boolean;
  /** Too many addresses saved from this client lately: why, and when to try again. */
  rateLimited?: string;
  /** The account's addresses, when the browser is signed in. */
  saved?: SavedChoice[];
  /** For a plain look: what the page shows of the shopper (page-shows.ts). */
  shows?: PageShows;
}

/** One of the account's addresses as the address step offers it. */
interface SavedChoice {
  address: SavedAddress;
  href: string;
  label: string;
  lines: string[];
}

/**
 * The address step: one form (server/forms/address-form.ts), saved on the cart. It needs
 * a cart with something to order; a valid address goes on to the overview (303), an
 * invalid one comes back with its messages and every value as typed (422).
 */
export function cartAddressRoutes(app: FastifyInstance, services: Services, routes: LocalizedRoutes): void {
  const route = routes.on(app);
  const { carts, i18n } = services;
  const path = (request: FastifyRequest, id: CheckoutStep) => i18n.routes.pathFor(id, request.locale);

  /** Signed in: the account's addresses, each a link that fills the form with it. */
  const savedAddresses = async (request: FastifyRequest): Promise<SavedChoice[]> => {
    const session = await request.signedIn();
    if (!session) return [];
    const t = i18n.t[request.locale];
    const path = i18n.routes.pathFor("cartAddress", request.locale);
    return (await services.addressBook.list(session.account.id)).map((address) => ({
      address,
      href: `${path}?${new URLSearchParams({ [t("account.checkout.query")]: address.id })}`,
      label: t("account.checkout.useLabel", { name: address.name, street: address.street }),
      lines: addressLines(address, t(`fields.countries.${address.country}`)),
    }));
  };

  const showForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    state: AddressPageState,
    status = 200,
  ) => {
    const t = i18n.t[request.locale];
    const saved = state.saved ?? (await savedAddresses(request));
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
        saved: saved.map(({ href, label, lines }) => ({ href, label, lines })),
      },
      { noindex: true, status, shows: state.shows },
    );
  };

  route("cartAddress", "GET", async (request, reply) => {
    // Both read before what the page shows of them, so a change in between fails the check:
    // the cart's revision, and the session with its account's (addresses added elsewhere,
    // signing out everywhere).
    const shownCart = await cartShown(carts, request);
    const session = shownCart && (await request.signedIn());
    const cart = await loadShopperCart(services, request);
    const elsewhere = redirectFor("cartAddress", checkoutState(cart));
    if (elsewhere) return reply.redirect(path(request, elsewhere), 303);
    // Signed in: the address chosen from the account's, or the one used last, unless the cart has one.
    const saved = await savedAddresses(request);
    const query = request.query as Record<string, unknown>;
    const chosen = saved.find(
      (s) => s.address.id === query[i18n.t[request.locale]("account.checkout.query")],
    );
    const address = chosen?.address ?? cart.address ?? saved[0]?.address;
    // Signed in without any address yet: the account's name and e-mail address, not blanks.
    const account: Record<string, string> =
      session && !address ? { name: session.account.name, email: session.account.email } : {};
    return showForm(request, reply, {
      values: { ...addressValues(address, request.locale), ...account },
      saved,
      shows:
        shownCart &&
        (session
          ? pageShows(shownCart, accountShown(services.accounts, session, services.now))
          : pageShows(shownCart)),
    });
  });

  route("cartAddress", "POST", async (request, reply) => {
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
      const address = toDeliveryAddress(values);
      await carts.saveAddress(cartId, address);
      // Signed in: the address joins the account's, for the next order.
      const session = await request.signedIn();
      if (session)
        await services.addressBook.save(services.database.db, session.account.id, address, services.now());
    } catch (err) {
      return saveFailed(err);
    }
    writeCartId(reply, cartId);
    return reply.redirect(path(request, "cartOverview"), 303);
  });
}
