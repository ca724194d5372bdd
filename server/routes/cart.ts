import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { subscriberShown } from "../cart/cart-subscriber.ts";
import type { ProjectCart } from "../cart/project-lines.ts";
import {
  cartForAdding,
  checkoutState,
  type LineView,
  lineViews,
  loadShopperCart,
  printsLeft,
  type ShopperCart,
} from "../cart/shopper-cart.ts";
import type { Product, ProductSize } from "../domain/catalogue.ts";
import { checkoutSteps } from "../domain/checkout-steps.ts";
import { crossSellTips } from "../domain/cross-sell.ts";
import { addToCartForm, maxQuantity } from "../forms/add-to-cart-form.ts";
import type { FieldError, FormValues } from "../forms/form.ts";
import { cartShown, pageShows } from "../http/caching/page-shows.ts";
import { readCartId, writeCartId } from "../http/cookies/cart-cookie.ts";
import { overClientLimit, retryText } from "../http/limits/client-limits.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { isAjax } from "../http/rendering/pages.ts";
import type { Services } from "../http/services.ts";
import { choiceText } from "../i18n/product-texts.ts";
import type { CartItem } from "../store/cart-repository.ts";
import type { ProductPageRenderer } from "./product.ts";

/** Above this many tips the block becomes a carousel: three cards fill a row on a large screen. */
const tipsPerRow = 3;

/** What the cart region shows besides the cart: what just happened, or why a post was refused. */
export interface CartRegionState {
  /** A change that worked, said once (role=status) */
  message?: string;
  /** A post that was refused: the cart is unchanged */
  notice?: string;
  /** A quantity that was refused, with what was typed, for the line it belongs to */
  lineError?: { key: string; values: FormValues; errors: FieldError[] };
}

type Intent = "add" | "update" | "remove";

/** One value of a posted field; a field sent twice (a tampered form) counts as its last value. */
function field(body: unknown, name: string): string | undefined {
  const raw = body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  return typeof value === "string" ? value : undefined;
}

const lineKey = (item: CartItem) =>
  `${item.productId}|${item.orientation}|${item.sizeId}|${item.projectId ?? ""}`;

/**
 * The cart contents page, and every change to the cart: add (from the product page and
 * the tips block), change a quantity, remove a line. All post to the contents address.
 * Without JavaScript a change answers 303 back to the cart (or, from the product page,
 * to the cart as well); an ajax post gets the cart region back, with the new count for
 * the header badge. A refused change answers 422 with a message and the cart unchanged.
 * Every change renews the cart cookie; abandoned carts are cleaned up by server/jobs/clean-up.ts.
 */
export function cartRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
  productPages: ProductPageRenderer,
  /** Lines with a photo-book project: checked and added by the photo editor's module. */
  projectCart?: ProjectCart,
): void {
  const route = routes.on(app);
  const { catalogue, carts, i18n } = services;

  const regionData = (request: FastifyRequest, cart: ShopperCart, state: CartRegionState) => {
    const locale = request.locale;
    const t = i18n.t[locale];
    const views = lineViews(services, locale, cart.lines, cart.projects);
    const tips = crossSellTips(
      catalogue,
      cart.lines.map((l) => l.productId),
    ).map((tip, i) => ({
      kind: "product",
      card: {
        product: tip.product,
        fromPriceCents: tip.choice.priceCents,
        eager: false,
        position: i + 1,
        add: {
          choice: tip.choice,
          label: choiceText(t, { orientation: tip.choice.orientation, sizeId: tip.choice.id }),
        },
      },
    }));
    return {
      cart,
      lines: views.map((view: LineView, i) => {
        const key = lineKey(view.line);
        const error = state.lineError?.key === key ? state.lineError : undefined;
        return {
          ...view,
          idPrefix: `line-${i + 1}`,
          values: error?.values ?? { quantity: String(view.line.quantity) },
          errors: error?.errors ?? [],
        };
      }),
      quantityForm: addToCartForm,
      maxQuantity,
      checkout: checkoutState(cart),
      printsLeft: printsLeft(cart),
      checkoutSteps,
      countryName: t(`fields.countries.${cart.totals.country}`),
      message: state.message,
      notice: state.notice,
      tips: {
        // Everything the tips block shows beyond the language and the catalogue: it is rendered
        // once for every cart with the same tips (PageContext.fragment).
        shows: `cart tips ${tips.map(({ card }) => `${card.product.id}:${card.add.choice.orientation}:${card.add.choice.id}`).join(" ")}`,
        cards: tips,
        carousel:
          tips.length > tipsPerRow
            ? { id: "cart-tips", label: t("cart.tips.label"), autoplay: false, slides: tips }
            : undefined,
      },
      categories: catalogue.categories,
    };
  };

  async function showCart(
    request: FastifyRequest,
    reply: FastifyReply,
    state: CartRegionState = {},
    status = 200,
    /** What an ajax post gets instead of the page: the cart region, unless it came from elsewhere. */
    fragment = "partials/cart-region",
  ): Promise<FastifyReply> {
    reply.header("cache-control", "private, no-store");
    const t = i18n.t[request.locale];
    // The plain page of a cart (no message, no refusal) shows the cart at its revision, which
    // the database raises with every change the page shows (migration 0007). A cart that is
    // gone, cleaned up or never there, stays gone (ids are never used again): the same empty
    // cart as everyone's.
    const plain = request.method === "GET" && status === 200 && Object.keys(state).length === 0;
    const cart = plain ? await cartShown(carts, request) : undefined;
    // Signed in, the totals may hold what the account's subscription takes off.
    const session = cart && (await request.signedIn());
    return reply.page(
      "pages/cart-contents",
      async () => ({
        title: t("cart.title"),
        ...regionData(request, await loadShopperCart(services, request), state),
      }),
      {
        noindex: true,
        status,
        fragment,
        cacheable: plain && !cart,
        shows: cart && pageShows(cart, ...(session ? subscriberShown(services, session) : [])),
      },
    );
  }

  /**
   * Counts a change (add, quantity, remove) against the client's limit, CART_CHANGE_RATE_LIMIT
   * a minute: the message to show when over it (Retry-After is set), undefined otherwise.
   */
  const tooManyChanges = async (request: FastifyRequest, reply: FastifyReply) => {
    const wait = await overClientLimit(services.limits.cartChanges, request, reply, "cart change");
    if (wait === undefined) return undefined;
    return i18n.t[request.locale]("cart.notices.tooManyChanges", {
      retry: retryText(i18n.t[request.locale], wait),
    });
  };

  /** After a change: back to the cart without JavaScript; the updated region with it. */
  const changed = (request: FastifyRequest, reply: FastifyReply, message: string) =>
    isAjax(request)
      ? showCart(request, reply, { message })
      : reply.redirect(i18n.routes.pathFor("cartContents", request.locale), 303);

  route("cartContents", "GET", (request, reply) => showCart(request, reply));

  route("cartContents", "POST", async (request, reply) => {
    const t = i18n.t[request.locale];
    const body = request.body;
    const rawIntent = field(body, "intent");
    const intent: Intent = rawIntent === "update" || rawIntent === "remove" ? rawIntent : "add";
    // The product page's form expects its own region back; everything else is the cart's.
    const fromCart = intent !== "add" || field(body, "from") === "cart";
    const refuse = (notice: string) => showCart(request, reply, { notice }, 422);

    // A book made in the photo editor: its project decides product and format. The editor
    // only sets the cookie for a new cart; renewing it for the shopper's cart is done here.
    const projectId = field(body, "project");
    if (intent === "add" && projectId !== undefined && projectCart) {
      const known = readCartId(request);
      if (known) writeCartId(reply, known);
      return projectCart.add(request, reply, body as Record<string, unknown>);
    }

    const product = productPages.find(field(body, "product"));
    const orientation = field(body, "orientation") ?? "";
    const sizeId = field(body, "size") ?? "";
    const size = product?.sizes.find((s) => s.orientation === orientation && s.id === sizeId);
    const label = (p: Product, s: ProductSize) => ({
      product: p.name[request.locale],
      choice: choiceText(t, { orientation: s.orientation, sizeId: s.id }),
    });

    if (intent === "remove") {
      const limited = await tooManyChanges(request, reply);
      if (limited) return showCart(request, reply, { notice: limited }, 429);
      const cartId = readCartId(request);
      // Removing what is not there leaves the cart as the shopper wanted it: no error, and
      // no word of a removal that did not happen (another tab, a tampered cookie).
      const removed =
        cartId && product && size
          ? await carts.remove(cartId, { productId: product.id, orientation, sizeId, projectId })
          : false;
      if (!removed || !cartId || !product || !size) return changed(request, reply, "");
      writeCartId(reply, cartId);
      return changed(request, reply, t("cart.messages.removed", label(product, size)));
    }

    if (!product) {
      const notice = t("cart.notices.unknownProduct");
      // From the product page with JavaScript, the notice goes where its form was: there
      // is nothing left to add there. Without JavaScript, the cart page says the same.
      return fromCart ? refuse(notice) : showCart(request, reply, { notice }, 422, "partials/cart-refusal");
    }
    const values = addToCartForm.values(body);

    if (intent === "update") {
      const cartId = readCartId(request);
      if (!size || !cartId) return refuse(t(size ? "cart.notices.lineGone" : "cart.notices.unknownOption"));
      const item = { productId: product.id, orientation, sizeId, projectId };
      const errors = await addToCartForm.validate(values, t, undefined, request.locale);
      if (errors.length > 0) {
        return showCart(request, reply, { lineError: { key: lineKey(item), values, errors } }, 422);
      }
      const limited = await tooManyChanges(request, reply);
      if (limited) {
        // The line keeps the quantity typed, for when the shopper tries again.
        return showCart(
          request,
          reply,
          { notice: limited, lineError: { key: lineKey(item), values, errors: [] } },
          429,
        );
      }
      const quantity = Number(values.quantity);
      if (!(await carts.setQuantity(cartId, item, quantity))) return refuse(t("cart.notices.lineGone"));
      writeCartId(reply, cartId);
      return changed(request, reply, t("cart.messages.updated", { ...label(product, size), quantity }));
    }

    // Adding.
    if (!size) {
      if (fromCart) return refuse(t("cart.notices.unknownOption"));
      // An option that no longer exists (an old tab, a tampered form): show what can be ordered.
      const fallback =
        product.sizes.find((s) => s.available) ?? (product.sizes[0] as (typeof product.sizes)[0]);
      return productPages.render(request, reply, product, fallback, { values, notice: true }, 422);
    }
    const errors = await addToCartForm.validate(values, t, undefined, request.locale);
    if (!size.available) {
      if (fromCart) return refuse(t("cart.notices.unavailable", label(product, size)));
      errors.unshift({ field: "orientation", message: t("product.unavailable") });
    }
    if (errors.length > 0) {
      if (fromCart) return refuse(errors.map((e) => e.message).join(" "));
      return productPages.render(request, reply, product, size, { values, errors, explicit: true }, 422);
    }

    /** An add that did not happen: said in the cart, or at the product page's quantity with everything chosen. */
    const notAdded = (message: string, status: number) =>
      fromCart
        ? showCart(request, reply, { notice: message }, status)
        : productPages.render(
            request,
            reply,
            product,
            size,
            { values, errors: [{ field: "quantity", message }], explicit: true },
            status,
          );
    const limited = await tooManyChanges(request, reply);
    if (limited) return notAdded(limited, 429);

    const quantity = Number(values.quantity);
    // A missing, expired or tampered cookie gets a new cart. The cookie is set for it, or
    // renewed for the shopper's own; from here on this request reads that cart (the
    // region and the header count below), not what the browser sent.
    const cart = await cartForAdding(services, request, reply);
    if ("wait" in cart) {
      return notAdded(t("cart.notices.tooManyCarts", { retry: retryText(t, cart.wait) }), 429);
    }
    const cartId = cart.cartId;
    writeCartId(reply, cartId);
    const item = { productId: product.id, orientation: size.orientation, sizeId: size.id };
    const { linesPerCart } = services.config.limits;
    if (!(await carts.add(cartId, item, quantity, maxQuantity, linesPerCart))) {
      const line = (await carts.lines(cartId)).find((l) => lineKey(l) === lineKey(item));
      // No such line yet: it was the number of lines that stopped it.
      if (!line) return notAdded(t("cart.notices.lines", { max: linesPerCart }), 422);
      const current = line.quantity;
      return notAdded(t("cart.notices.limit", { ...label(product, size), max: maxQuantity, current }), 422);
    }
    services.counters.count("funnel.cart_add", request.locale, product.id);

    if (fromCart) return changed(request, reply, t("product.added", label(product, size)));
    if (!isAjax(request)) return reply.redirect(i18n.routes.pathFor("cartContents", request.locale), 303);
    reply.header("cache-control", "private, no-store");
    const cartCount = await carts.itemCount(cartId);
    return productPages.render(request, reply, product, size, {
      added: { quantity, cartCount },
      explicit: true,
    });
  });
}
