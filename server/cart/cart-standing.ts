import type { FastifyRequest } from "fastify";
import type { StillHolds } from "../http/caching/ready-answers.ts";
import { readCartId } from "../http/cookies/cart-cookie.ts";
import type { CartRepository } from "../store/cart-repository.ts";

export interface CartStanding {
  /** The cart's revision when the page was made: part of the name it is kept under (pages.ts). */
  revision: number;
  /** The check for ready answers (ready-answers.ts): the cart is still at that revision. */
  holds: StillHolds;
}

/**
 * What a checkout page needs to be kept: the cart's revision, which the database raises with
 * every change a checkout page shows (migration 0007), on whichever instance it was made.
 * Read before the cart itself, so a change that lands in between fails the check rather than
 * keep a page that misses it. Undefined without a cart: nothing to keep.
 */
export async function cartStanding(
  carts: CartRepository,
  cartId: string | undefined,
): Promise<CartStanding | undefined> {
  if (!cartId) return undefined;
  const revision = await carts.revision(cartId);
  if (revision === undefined) return undefined;
  return { revision, holds: { stored: async () => (await carts.revision(cartId)) === revision } };
}

/**
 * The check that the count in this browser's page header, part of what every kept personal
 * page shows, is still the one it was. A ready answer only goes to a browser sending the same
 * cookies, so the same cart: its cookie is unsigned once, here, not on every check.
 */
export async function headerCountHolds(carts: CartRepository, request: FastifyRequest): Promise<StillHolds> {
  const cartId = readCartId(request);
  const countOf = async () => (cartId ? await carts.itemCount(cartId) : 0);
  const count = await countOf();
  return { stored: async () => (await countOf()) === count };
}
