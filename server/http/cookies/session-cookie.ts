import type { FastifyReply, FastifyRequest } from "fastify";
import { isLinkToken } from "../../store/link-token.ts";
import { cookieName, cookieSecure } from "./cookie-names.ts";

/**
 * A signed-in browser carries its session's token in a signed, HttpOnly, SameSite=Lax
 * cookie (Secure behind HTTPS); the database keeps only the token's hash
 * (server/store/session-repository.ts), so ending a session there ends it on every instance.
 */
export const sessionCookieName = "session";

/** The token from the signed cookie; a missing, malformed or tampered cookie reads as none. */
export function readSessionToken(request: FastifyRequest): string | undefined {
  const raw = request.cookies[cookieName(request, sessionCookieName)];
  if (!raw) return undefined;
  const result = request.unsignCookie(raw);
  return result.valid && isLinkToken(result.value) ? result.value : undefined;
}

export function writeSessionCookie(reply: FastifyReply, token: string, maxAgeMs: number): void {
  reply.setCookie(cookieName(reply, sessionCookieName), token, {
    signed: true,
    httpOnly: true,
    sameSite: "lax",
    secure: cookieSecure(reply),
    path: "/",
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(cookieName(reply, sessionCookieName), { path: "/", secure: cookieSecure(reply) });
}
