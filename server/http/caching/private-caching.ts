import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { offeredToEveryone } from "./ready-answers.ts";

/**
 * Who may keep an answer, decided once for every response instead of in each route.
 *
 * - An answer offered to every visitor without cookies (a ready answer, ready-answers.ts)
 *   may sit in a shared cache for as long as the shop itself treats a shared page as
 *   current. Its form token is the shared one, good for a day (form-protection.ts), so the
 *   token never limits this; what a page shows (prices, dispatch dates) does.
 * - An answer to a browser that sent cookies is personal (its form token is bound to the
 *   shopper's cookie, its header shows their cart count): private, and asked again on
 *   every use, but not no-store, so Back and Forward may still show it from the browser's
 *   back/forward cache. The answer to a post and one that sets a cookie are not stored at
 *   all, nor is anything a route marks no-store (the cart, the checkout, the order).
 * - Anything else (an error page, a page for a browser that takes no gzip) is the same for
 *   everyone but was not offered to everyone: private, asked again on every use.
 *
 * A route's own policy stands, made private unless it says so or says no-store; one that
 * says `public` (the build's hashed files, the 360 frames) is a file that is the same for
 * everyone and keeps its Vary as it is. Every other answer varies on Cookie, so a cache
 * never hands what it keeps for a browser without cookies to one with them.
 *
 * Only the Cookie header's presence is read, never its value: no cookie is unsigned here.
 */
export const sharedPolicy = "public, max-age=30";
export const personalPolicy = "private, no-cache";
export const unstoredPolicy = "private, no-store";
export const anonymousPolicy = "private, no-cache";

/** Vary with Cookie added to what is there; names compared case-insensitively. */
export function varyWithCookie(vary: unknown): string {
  if (vary === undefined || vary === "") return "Cookie";
  const text = Array.isArray(vary) ? vary.join(", ") : String(vary);
  if (/(?:^|,)\s*(?:cookie|\*)\s*(?:,|$)/i.test(text)) return text;
  return `${text}, Cookie`;
}

const sentCookies = (request: FastifyRequest) => {
  const cookie = request.headers.cookie;
  return cookie !== undefined && cookie !== "";
};
const mustNotBeStored = (request: FastifyRequest, reply: FastifyReply) =>
  reply.hasHeader("set-cookie") || (request.method !== "GET" && request.method !== "HEAD");

export function cachePolicy(request: FastifyRequest, reply: FastifyReply): void {
  const own = reply.getHeader("cache-control");
  if (typeof own === "string" && own !== "") {
    if (own.includes("public")) return;
    // no-store already keeps it out of every cache; anything else a route says is for this browser only.
    if (!own.includes("private") && !own.includes("no-store"))
      reply.header("cache-control", `private, ${own}`);
  } else if (mustNotBeStored(request, reply)) {
    reply.header("cache-control", unstoredPolicy);
  } else if (sentCookies(request)) {
    reply.header("cache-control", personalPolicy);
  } else {
    const shared = reply.statusCode === 200 && offeredToEveryone(reply);
    reply.header("cache-control", shared ? sharedPolicy : anonymousPolicy);
  }
  reply.header("vary", varyWithCookie(reply.getHeader("vary")));
}

/**
 * Registered after the cookie plugin (its onSend writes Set-Cookie) and before the ready
 * answers keep a copy (they keep the headers as they are then).
 */
export function registerPrivateCaching(app: FastifyInstance): void {
  // Callback style, not async: a hook on every response should not cost a promise.
  app.addHook("onSend", (request, reply, payload, done) => {
    cachePolicy(request, reply);
    done(null, payload);
  });
}
