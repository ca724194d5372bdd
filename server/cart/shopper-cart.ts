import type { FastifyReply, FastifyRequest } from "fastify";
import { type CartTotals, cartTotals, type PricedLine, priceLines } from "../domain/cart-pricing.ts";
import type { CheckoutState } from "../domain/checkout-steps.ts";
import { countryOfLocale, type DeliveryAddress } from "../domain/delivery-address.ts";
import { type SubscriberAllowance, subscriberBenefits } from "../domain/subscriber-benefits.ts";
import { readCartId } from "../http/cookies/cart-cookie.ts";
import { overClientLimit } from "../http/limits/client-limits.ts";
import { countFromLines } from "../http/rendering/header-cart-count.ts";
import type { Services } from "../http/services.ts";
import type { Locale } from "../i18n/locales.ts";
import { choiceText } from "../i18n/product-texts.ts";
import type { PhotoProject } from "../store/photo-project-repository.ts";
import { type CartSubscriber, cartSubscriber } from "./cart-subscriber.ts";

/** The shopper's cart as every checkout step needs it: priced lines, address and totals. */
export interface ShopperCart {
  cartId: string | undefined;
  lines: PricedLine[];
  address: DeliveryAddress | undefined;
  totals: CartTotals;
  /** The photo-book projects of the lines that have one, by id, with their photo counts. */
  projects: ReadonlyMap<string, PhotoProject>;
  /** The signed-in shopper's subscription, when it gives free prints or a discount now (ADR 0104). */
  subscriber?: CartSubscriber;
}

/**
 * The cart an add goes into: the shopper's own, or a new one. A missing, expired or
 * tampered cookie means a new cart (the account's, when signed in), and so does every add from a browser without cookies:
 * new carts count against the client's limit (CART_RATE_LIMIT per hour). Over it: the
 * seconds to wait, with Retry-After set, and no cart made.
 */
export async function cartForAdding(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ cartId: string; created: boolean } | { wait: number }> {
  const known = readCartId(request);
  if (known && (await services.carts.exists(known))) return { cartId: known, created: false };
  const wait = await overClientLimit(services.limits.carts, request, reply, "new cart");
  if (wait !== undefined) return { wait };
  const cartId = await services.carts.create();
  // Signed in: the new cart is the account's, on every device it signs in on.
  const session = await request.signedIn();
  if (session) await services.accounts.setCart(services.database.db, session.account.id, cartId);
  return { cartId, created: true };
}

export async function loadShopperCart(services: Services, request: FastifyRequest): Promise<ShopperCart> {
  const cartId = readCartId(request);
  const [stored, address] = cartId
    ? await Promise.all([services.carts.lines(cartId), services.carts.address(cartId)])
    : [[], undefined];
  // The header counts the same lines: the page need not ask the database for the sum.
  countFromLines(request, cartId, stored);
  const projectIds = stored.flatMap((l) => (l.projectId ? [l.projectId] : []));
  const projects = projectIds.length > 0 ? await services.projects.summaries(projectIds) : undefined;
  // A subscription's prints and discount only matter to a cart with something in it.
  const session = stored.length > 0 ? await request.signedIn() : undefined;
  const subscriber = session && (await cartSubscriber(services, session.account.id));
  return pricedCart(services, request.locale, cartId, stored, address, { projects, subscriber });
}

/**
 * A photo book can only be made from photos: a line whose project lost its last photo (or
 * the project itself) waits, like a size that cannot be delivered, until the shopper mends it.
 */
function hasPhotos(line: PricedLine, projects: ReadonlyMap<string, PhotoProject>): boolean {
  return !line.projectId || (projects.get(line.projectId)?.photoCount ?? 0) > 0;
}

export function pricedCart(
  services: Services,
  locale: Locale,
  cartId: string | undefined,
  stored: Parameters<typeof priceLines>[1],
  address: DeliveryAddress | undefined,
  options: {
    projects?: ReadonlyMap<string, PhotoProject>;
    subscriber?: CartSubscriber;
    /** What the subscription gives, when it is not `subscriber.allowance` (placing an order counts again). */
    allowance?: SubscriberAllowance;
  } = {},
): ShopperCart {
  const { projects = new Map(), subscriber } = options;
  const lines = priceLines(services.catalogue, stored).map((line) =>
    line.orderable && !hasPhotos(line, projects) ? { ...line, orderable: false } : line,
  );
  // Until the shopper gives an address, VAT and shipping are those of the shop's language's country.
  const country = address?.country ?? countryOfLocale[locale];
  const benefits = subscriberBenefits(lines, options.allowance ?? subscriber?.allowance);
  return {
    cartId,
    lines,
    address,
    totals: cartTotals(lines, country, benefits),
    projects,
    ...(subscriber && { subscriber }),
  };
}

/**
 * "Nog 17 van je 20 gratis afdrukken deze maand": the free prints the subscription leaves
 * once this cart is ordered; undefined without a subscription whose plan has free prints.
 */
export function printsLeft(
  cart: Pick<ShopperCart, "subscriber" | "totals">,
): { left: number; total: number } | undefined {
  const allowance = cart.subscriber?.allowance;
  if (!allowance || allowance.printsPerMonth === 0) return undefined;
  return {
    left: Math.max(0, allowance.freePrintsLeft - cart.totals.subscriber.freePrints),
    total: allowance.printsPerMonth,
  };
}

export function checkoutState(cart: Pick<ShopperCart, "lines" | "address" | "totals">): CheckoutState {
  return {
    orderableItems: cart.totals.itemCount,
    blockedLines: cart.lines.filter((l) => !l.orderable).length,
    hasAddress: cart.address !== undefined,
  };
}

/** A cart line as the templates show it: names and links in the page's language. */
export interface LineView {
  line: PricedLine;
  name: string;
  choice: string;
  href: string;
  /** A photo-book project's line: "Fotoboekproject met 12 foto's" and the project page. */
  project?: { text: string; href: string };
  /** Why the line cannot be ordered as it is, when it cannot. */
  blocked?: string;
}

export function lineViews(
  services: Services,
  locale: Locale,
  lines: readonly PricedLine[],
  projects: ReadonlyMap<string, PhotoProject> = new Map(),
): LineView[] {
  const t = services.i18n.t[locale];
  return lines.map((line) => {
    const project = line.projectId ? projects.get(line.projectId) : undefined;
    const blocked = line.orderable
      ? undefined
      : line.size.available
        ? t(project ? "editor.cart.noPhotos" : "editor.cart.projectGone")
        : t("cart.unavailableLine");
    return {
      line,
      name: line.product.name[locale],
      choice: choiceText(t, line),
      href: services.links.choice(line.product, line.size, locale),
      ...(project && {
        project: {
          text: t("editor.cart.line", { photos: t("editor.cart.photos", { count: project.photoCount }) }),
          href: services.i18n.routes.pathFor("editorProject", locale, { project: project.id }),
        },
      }),
      ...(blocked && { blocked }),
    };
  });
}
