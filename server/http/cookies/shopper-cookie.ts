import type { FastifyReply, FastifyRequest } from "fastify";
import { isRandomId, randomId } from "../../store/random-id.ts";
import { cookieName, cookieSecure } from "./cookie-names.ts";

/**
 * The shopper's own photos and projects are found by an opaque random id in a signed,
 * HttpOnly cookie (like the cart's), so the editor and the subscription page show the
 * same uploads without an account. Set only once a shopper uploads or starts something.
 */
export const shopperCookieName = "shopper";

/** The shopper id from the signed cookie; a missing, malformed or tampered cookie reads as none. */
export function readShopperId(request: FastifyRequest): string | undefined {
  const raw = request.cookies[cookieName(request, shopperCookieName)];
  if (!raw) return undefined;
  const result = request.unsignCookie(raw);
  return result.valid && isRandomId(result.value) ? result.value : undefined;
}

/** The shopper id, made and set now if the browser has none yet. */
export function ensureShopperId(request: FastifyRequest, reply: FastifyReply): string {
  // Renewed on every change, so photos stay reachable while the shopper keeps working on them.
  const id = readShopperId(request) ?? randomId();
  setShopperId(reply, id);
  return id;
}

/** Sets the cookie to this id: an account's own on every browser it signs in on. */
export function setShopperId(reply: FastifyReply, id: string): void {
  reply.setCookie(cookieName(reply, shopperCookieName), id, {
    signed: true,
    httpOnly: true,
    sameSite: "lax",
    secure: cookieSecure(reply),
    path: "/",
    maxAge: 60 * 60 * 24 * 180,
  });
}
