import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AccountRepository } from "../../store/account-repository.ts";
import { cartCookieName, readCartId } from "../cookies/cart-cookie.ts";
import { cookieName, cookieSecure } from "../cookies/cookie-names.ts";
import { clearSessionCookie } from "../cookies/session-cookie.ts";
import { readShopperId, shopperCookieName } from "../cookies/shopper-cookie.ts";
import { claimsSession } from "./signed-in.ts";

/**
 * One browser, one person (ADR 0089): an account's cart and photos are reached only through
 * one of its sessions, never by the cart or shopper cookie alone. Before any route reads them,
 * a cookie that names what belongs to an account is forgotten for the request (and cleared in
 * the answer) when the browser is not signed in to that account, and a browser whose session
 * ended (signed out elsewhere, a new password, expired) loses its cart and shopper cookies
 * with it: whoever uses the browser next starts as a new guest.
 */
export function registerAccountHoldings(app: FastifyInstance, accounts: AccountRepository): void {
  app.addHook("preHandler", async (request, reply) => {
    // Files carry no cart: nothing to ask the database for.
    if (request.url.startsWith("/static/")) return;
    const cartId = readCartId(request);
    const shopperId = readShopperId(request);
    if (!claimsSession(request)) {
      if (cartId || shopperId) await forgetOthers(accounts, request, reply, undefined, cartId, shopperId);
      return;
    }
    // The database cannot say whether the session holds: the route asks it too, and reports the fault.
    const session = await request.signedIn().catch(() => null);
    if (session === null) return;
    if (!session) {
      clearSessionCookie(reply);
      forget(request, reply, cartCookieName, shopperCookieName);
      return;
    }
    const foreignCart = cartId !== undefined && cartId !== session.account.cartId ? cartId : undefined;
    const foreignShopper = shopperId !== session.account.ownerId ? shopperId : undefined;
    if (foreignCart || foreignShopper) {
      await forgetOthers(accounts, request, reply, session.account.id, foreignCart, foreignShopper);
    }
  });
}

/** Forgets the cart and shopper cookies that name another account's (or any, signed out) holdings. */
async function forgetOthers(
  accounts: AccountRepository,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: string | undefined,
  cartId: string | undefined,
  shopperId: string | undefined,
): Promise<void> {
  let holders: Awaited<ReturnType<AccountRepository["holdersOf"]>>;
  try {
    holders = await accounts.holdersOf({
      ...(cartId ? { cartId } : {}),
      ...(shopperId ? { ownerId: shopperId } : {}),
    });
  } catch (err) {
    // The database cannot answer: the route cannot read the cart or photos either, and says so
    // with the shopper's form kept (a 503), rather than this hook failing the request blind.
    request.log.warn({ err }, "whose cart and photos the cookies name could not be asked");
    return;
  }
  const names = [
    ...(holders.cart && holders.cart !== accountId ? [cartCookieName] : []),
    ...(holders.owner && holders.owner !== accountId ? [shopperCookieName] : []),
  ];
  if (names.length > 0) forget(request, reply, ...names);
}

/**
 * The request reads as if these cookies (named without their `__Host-` prefix) were never
 * sent; the answer, when given, clears them.
 */
function forget(request: FastifyRequest, reply: FastifyReply | undefined, ...names: string[]): void {
  for (const name of names) {
    delete request.cookies[cookieName(request, name)];
    reply?.clearCookie(cookieName(request, name), { path: "/", secure: cookieSecure(request) });
  }
}
