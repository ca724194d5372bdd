import type { FastifyReply, FastifyRequest } from "fastify";
import { cookieName, cookieSecure } from "./cookie-names.ts";

/**
 * A message for the page a redirect-after-post lands on ("2 photos were refused"): kept
 * in a short-lived signed cookie and read once. Values are small JSON (reason codes and
 * names, never texts: the next page words them in its own language).
 */
const maxAgeSeconds = 120;

export function writeFlash(reply: FastifyReply, name: string, value: unknown): void {
  reply.setCookie(cookieName(reply, `flash-${name}`), JSON.stringify(value), {
    signed: true,
    httpOnly: true,
    sameSite: "lax",
    secure: cookieSecure(reply),
    path: "/",
    maxAge: maxAgeSeconds,
  });
}

/** Whether a flash value waits to be shown: a page that shows it is made afresh, never kept. */
export function hasFlash(request: FastifyRequest, name: string): boolean {
  return request.cookies[cookieName(request, `flash-${name}`)] !== undefined;
}

/** The flash value, cleared as it is read; undefined when there is none or it was tampered with. */
export function takeFlash<T>(request: FastifyRequest, reply: FastifyReply, name: string): T | undefined {
  const raw = request.cookies[cookieName(request, `flash-${name}`)];
  if (!raw) return undefined;
  reply.clearCookie(cookieName(reply, `flash-${name}`), { path: "/", secure: cookieSecure(reply) });
  const result = request.unsignCookie(raw);
  if (!result.valid || !result.value) return undefined;
  try {
    return JSON.parse(result.value) as T;
  } catch {
    return undefined;
  }
}
