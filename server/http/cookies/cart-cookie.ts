import type { FastifyReply, FastifyRequest } from "fastify";
import { cookieName, cookieSecure } from "./cookie-names.ts";

export const cartCookieName = "cart";

/**
 * How long a cart lives without changes: the cookie's lifetime, renewed on every change,
 * and the age after which the clean-up job deletes an untouched cart (server/jobs/clean-up.ts).
 */
export const cartLifetimeSeconds = 60 * 60 * 24 * 60;

/**
 * The cart a response has just issued (a new cart for a missing or tampered cookie):
 * what the rest of the same request must read, since the browser only sends it next time.
 */
const issued = new WeakMap<FastifyRequest, string>();

/**
 * Signed cookie values already checked, with the cart id they carry, per Fastify instance
 * (each has its own secret). A signature that was good stays good while the instance lives,
 * and the HMAC was a tenth of the time a kept cart page takes.
 */
const verifiedBy = new WeakMap<object, Map<string, string>>();

/** The cart this response has just issued, if any: its cookie reaches the browser only now. */
export function issuedCartId(request: FastifyRequest): string | undefined {
  return issued.get(request);
}

/** The cart id from the signed cookie; a missing, malformed or tampered cookie reads as no cart. */
export function readCartId(request: FastifyRequest): string | undefined {
  const fresh = issued.get(request);
  if (fresh) return fresh;
  const raw = request.cookies[cookieName(request, cartCookieName)];
  if (!raw) return undefined;
  let verified = verifiedBy.get(request.server);
  if (!verified) {
    verified = new Map();
    verifiedBy.set(request.server, verified);
  }
  const known = verified.get(raw);
  if (known) return known;
  const result = request.unsignCookie(raw);
  if (!result.valid || !result.value || !/^[\w-]{22}$/.test(result.value)) return undefined;
  verified.set(raw, result.value);
  // Oldest first out; only cookies that passed the check are kept, so nobody can fill it with guesses.
  if (verified.size > 2000) verified.delete(verified.keys().next().value as string);
  return result.value;
}

/**
 * Sets the cart cookie, or renews it after a change: an active cart never expires under
 * its shopper. A second call in one response replaces the first Set-Cookie, not adds one.
 */
export function writeCartId(reply: FastifyReply, cartId: string): void {
  issued.set(reply.request, cartId);
  reply.setCookie(cookieName(reply, cartCookieName), cartId, {
    signed: true,
    httpOnly: true,
    sameSite: "lax",
    secure: cookieSecure(reply),
    path: "/",
    maxAge: cartLifetimeSeconds,
  });
}
