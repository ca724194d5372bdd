import type { FastifyReply, FastifyRequest } from "fastify";
import { maxQuantity } from "../forms/add-to-cart-form.ts";
import { cartCookieName, readCartId, writeCartId } from "../http/cookies/cart-cookie.ts";
import { cookieName, cookieSecure } from "../http/cookies/cookie-names.ts";
import { clearSessionCookie, writeSessionCookie } from "../http/cookies/session-cookie.ts";
import { setShopperId, shopperCookieName } from "../http/cookies/shopper-cookie.ts";
import type { Services } from "../http/services.ts";
import type { Account } from "../store/account-repository.ts";
import type { MergeOutcome } from "../store/cart-repository.ts";
import { joinAccount } from "./browser-join.ts";

/**
 * Signs this browser in to `account`: a new session every time (never one the browser
 * brought: session fixation), its guest cart's lines joined to the account's cart
 * (browser-join.ts), and its cookies set to what the account has on every device. No id the
 * browser held before signing in goes on being used: its cart cookie names the account's
 * cart (or none), its shopper cookie the account's owner id. Any session the browser held
 * before ends.
 */
export async function signInBrowser(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  account: Account,
): Promise<{ merged?: MergeOutcome }> {
  const now = services.now();
  const previous = await request.signedIn().catch(() => undefined);
  if (previous) await services.sessions.end(previous.tokenHash);
  const joined = await joinAccount(
    services.database.db,
    account.id,
    { cartId: readCartId(request) },
    { maxQuantity, maxLines: services.config.limits.linesPerCart },
    now,
  );
  const { token } = await services.sessions.start(services.database.db, account.id, now);
  writeSessionCookie(reply, token, services.config.sessions.absoluteMs);
  setShopperId(reply, joined.ownerId);
  if (joined.cartId) writeCartId(reply, joined.cartId);
  else reply.clearCookie(cookieName(reply, cartCookieName), { path: "/", secure: cookieSecure(reply) });
  return joined.merged ? { merged: joined.merged } : {};
}

/**
 * Signs this browser out (or, with `everywhere`, every browser of the account). The browser
 * keeps nothing of the account: its session, cart and photo cookies go, so whoever uses it
 * next sees none of them and starts with new ids of their own. Another browser of the
 * account loses them on its next request (http/security/account-holdings.ts).
 */
export async function signOutBrowser(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { everywhere?: boolean } = {},
): Promise<void> {
  const session = await request.signedIn();
  if (session) {
    if (options.everywhere) await services.sessions.endAll(session.account.id);
    else await services.sessions.end(session.tokenHash);
  }
  clearSessionCookie(reply);
  reply.clearCookie(cookieName(reply, cartCookieName), { path: "/", secure: cookieSecure(reply) });
  reply.clearCookie(cookieName(reply, shopperCookieName), { path: "/", secure: cookieSecure(reply) });
}
