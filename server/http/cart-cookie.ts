import type { FastifyReply, FastifyRequest } from "fastify";

export const cartCookieName = "cart";

/** The cart id from the signed cookie; a missing, malformed or tampered cookie reads as no cart. */
export function readCartId(request: FastifyRequest): string | undefined {
  const raw = request.cookies[cartCookieName];
  if (!raw) return undefined;
  const result = request.unsignCookie(raw);
  if (!result.valid || !result.value || !/^[\w-]{22}$/.test(result.value)) return undefined;
  return result.value;
}

export function writeCartId(reply: FastifyReply, cartId: string): void {
  reply.setCookie(cartCookieName, cartId, {
    signed: true,
    httpOnly: true,
    sameSite: "lax",
    secure: "auto",
    path: "/",
    maxAge: 60 * 60 * 24 * 60,
  });
}
