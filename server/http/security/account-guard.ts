import type { FastifyReply, FastifyRequest } from "fastify";
import type { Session } from "../../store/session-repository.ts";
import { writeFlash } from "../cookies/flash-cookie.ts";
import { clearSessionCookie } from "../cookies/session-cookie.ts";
import type { Services } from "../services.ts";
import { claimsSession } from "./signed-in.ts";

/** The query parameter of the sign-in page that names where to go afterwards. */
export const returnParameter = "terug";

/**
 * A path of this shop to go back to after signing in; anything else (another site, "//x",
 * a scheme) reads as none, so the sign-in page can never send someone elsewhere.
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 500) return undefined;
  return /^\/(?![/\\])[\w\-./?=&%~+]*$/.test(value) ? value : undefined;
}

/**
 * The signed-in session for an account page, or a 303 to the sign-in page that comes back
 * here afterwards (with the page's words: "log in to go on"). Undefined means the reply is
 * already on its way.
 */
export async function requireAccount(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Session | undefined> {
  const session = await request.signedIn();
  if (session) {
    reply.header("cache-control", "private, no-store");
    return session;
  }
  // A session that ended (signed out everywhere, expired): its cookie goes too.
  if (claimsSession(request)) clearSessionCookie(reply);
  const here = request.method === "GET" ? safeReturnPath(request.url) : undefined;
  const signIn = services.i18n.routes.pathFor("signIn", request.locale);
  writeFlash(reply, "sign-in", "signInFirst");
  await reply.redirect(here ? `${signIn}?${new URLSearchParams({ [returnParameter]: here })}` : signIn, 303);
  return undefined;
}
