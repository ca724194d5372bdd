import type { FastifyReply, FastifyRequest } from "fastify";
import { isLinkToken } from "../../store/link-token.ts";

/**
 * A signed-in browser carries its session's token in a signed, HttpOnly, SameSite=Lax
 * cookie (Secure behind HTTPS); the database keeps only the token's hash
 * (server/store/session-repository.ts), so ending a session there ends it on every instance.
 */
export const sessionCookieName = "session";

/** The token from the signed cookie; a missing, malformed or tampered cookie reads as none. */
export function readSessionToken(request: FastifyRequest): string | undefined {
  const raw = request.cookies[sessionCookieName];
  if (!raw) return undefined;
  const result = request.unsignCookie(raw);
  return result.valid && isLinkToken(result.value) ? result.value : undefined;
}

export function writeSessionCookie(reply: FastifyReply, token: string, maxAgeMs: number): void {
  reply.setCookie(sessionCookieName, token, {
    signed: true,
    httpOnly: true,
    sameSite: "lax",
    secure: "auto",
    path: "/",
    maxAge: Math.floor(maxAgeMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(sessionCookieName, { path: "/" });
}
