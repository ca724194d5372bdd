import type { FastifyReply, FastifyRequest } from "fastify";

export const cartCookieName = "cart";

/**
 * How long a cart lives without changes: the cookie's lifetime, renewed on every change,
 * and the age after which the store deletes an untouched cart (cart-cleanup.ts).
 */
export const cartLifetimeSeconds = 60 * 60 * 24 * 60;

/**
 * The cart a response has just issued (a new cart for a missing or tampered cookie):
 * what the rest of the same request must read, since the browser only sends it next time.
 */
const issued = new WeakMap<FastifyRequest, string>();

/** The cart id from the signed cookie; a missing, malformed or tampered cookie reads as no cart. */
export function readCartId(request: FastifyRequest): string | undefined {
  const fresh = issued.get(request);
  if (fresh) return fresh;
  const raw = request.cookies[cartCookieName];
  if (!raw) return undefined;
  const result = request.unsignCookie(raw);
  if (!result.valid || !result.value || !/^[\w-]{22}$/.test(result.value)) return undefined;
  return result.value;
}

/**
 * Sets the cart cookie, or renews it after a change: an active cart never expires under
 * its shopper. A second call in one response replaces the first Set-Cookie, not adds one.
 */
export function writeCartId(reply: FastifyReply, cartId: string): void {
  issued.set(reply.request, cartId);
  reply.setCookie(cartCookieName, cartId, {
    signed: true,
    httpOnly: true,
    sameSite: "lax",
    secure: "auto",
    path: "/",
    maxAge: cartLifetimeSeconds,
  });
}
