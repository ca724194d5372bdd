import type { FastifyRequest } from "fastify";
import type { CartRepository } from "../../store/cart-repository.ts";
import { readCartId } from "../cookies/cart-cookie.ts";

/**
 * The number in the page header's cart link, asked of the database once per request.
 *
 * Several parts of one request want it: the page's own name (pages.ts), a signed-in page's
 * declaration of what it shows (page-shows.ts), and the cart pages, which read the cart's
 * lines anyway and so know it without asking. On PostgreSQL each ask is a round trip of its
 * own (about 0.06 ms of the shop's CPU, and the server's, docs/performance.md).
 *
 * Only a GET or HEAD keeps the answer: a post may change the cart after it was asked, and
 * the page it then shows must count what the cart holds now.
 */
const answers = new WeakMap<FastifyRequest, { cartId: string; count: Promise<number> }>();

const keepsAnswer = (request: FastifyRequest) => request.method === "GET" || request.method === "HEAD";

export function headerCartCount(carts: CartRepository, request: FastifyRequest): Promise<number> {
  const cartId = readCartId(request);
  if (!cartId) return Promise.resolve(0);
  const known = answers.get(request);
  if (known?.cartId === cartId) return known.count;
  const count = carts.itemCount(cartId);
  if (keepsAnswer(request)) {
    answers.set(request, { cartId, count });
    // A failed ask is not kept: the next part of the request may ask again.
    count.catch(() => answers.delete(request));
  }
  return count;
}

/**
 * The count, as the lines this request has just read add up (the same sum the database
 * would make): later parts of the request take it from here. A count already asked stays:
 * it may be part of a name the page is kept under.
 */
export function countFromLines(
  request: FastifyRequest,
  cartId: string | undefined,
  lines: readonly { quantity: number }[],
): void {
  if (!cartId || !keepsAnswer(request) || cartId !== readCartId(request)) return;
  if (answers.get(request)?.cartId === cartId) return;
  const count = lines.reduce((sum, line) => sum + line.quantity, 0);
  answers.set(request, { cartId, count: Promise.resolve(count) });
}
