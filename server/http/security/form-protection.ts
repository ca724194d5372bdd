import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { cartCookieName, issuedCartId } from "../cookies/cart-cookie.ts";
import { cookieName, csrfCookieName } from "../cookies/cookie-names.ts";
import { sessionCookieName } from "../cookies/session-cookie.ts";
import { shopperCookieName } from "../cookies/shopper-cookie.ts";

/**
 * Protection of every form post against cross-site request forgery, in two layers.
 *
 * 1. Where the request comes from, as the browser says it (Fetch Metadata, else Origin).
 *    A post a browser marks as coming from another site is refused, whatever it carries;
 *    one it marks as coming from the shop's own pages is accepted on that alone. Neither
 *    header can be set by a page, and every current browser sends one of them on a post.
 * 2. For a post that tells neither (an old browser, or one behind a proxy that strips
 *    them), the form's token. A shopper who holds one of our cookies gets a token bound to
 *    a secret of their own (@fastify/csrf-protection), but only on pages asked for without
 *    Fetch Metadata: such a browser will post without it too. Everyone else's forms carry
 *    the shared token: signed by the shop, the same for everyone for an hour, accepted
 *    without layer 1 only from a browser that holds none of our cookies (forgery abuses the
 *    cookies a browser sends by itself, and it has none to abuse).
 *
 * So a page is the same bytes for everyone who sees the same data, and can be kept and
 * answered as it is (pages.ts), instead of one rendering per shopper's token.
 */

/** The cookies that carry a shopper's standing: forged posts would ride on these. */
/** Without their `__Host-` prefix (cookie-names.ts), which holdsCredentials adds. */
export const credentialCookies = [
  cartCookieName,
  shopperCookieName,
  sessionCookieName,
  csrfCookieName,
] as const;

const sharedPrefix = "shared.";
const windowMs = 60 * 60 * 1000;
/** How long a shared token stays good: as long as a form may sit open in a tab. */
const windowsValid = 24;

export interface SharedFormTokens {
  /** The token for forms on pages made now. */
  current(): string;
  /** Whether a token is a shared token at all (then only `verify` may accept it). */
  isShared(token: string): boolean;
  verify(token: string): boolean;
}

export function sharedFormTokens(secret: string, now: () => number = Date.now): SharedFormTokens {
  const mac = (window: number) =>
    createHmac("sha256", secret).update(`shared-form-token:${window}`).digest("base64url").slice(0, 32);
  let latest: { window: number; token: string } | undefined;
  return {
    current() {
      const window = Math.floor(now() / windowMs);
      if (latest?.window !== window) latest = { window, token: `${sharedPrefix}${window}.${mac(window)}` };
      return latest.token;
    },
    isShared: (token) => token.startsWith(sharedPrefix),
    verify(token) {
      const match = /^shared\.(\d{1,12})\.([\w-]{32})$/.exec(token);
      if (!match) return false;
      const window = Number(match[1]);
      const age = Math.floor(now() / windowMs) - window;
      if (age < 0 || age >= windowsValid) return false;
      return timingSafeEqual(Buffer.from(match[2] as string), Buffer.from(mac(window)));
    },
  };
}

export type Provenance = "same-origin" | "cross-site" | "unknown";

/**
 * Where a request comes from, as the browser tells it. Sec-Fetch-Site is set by every
 * current browser and cannot be set by a page; older browsers still send Origin on a
 * post. Neither header: not a browser, or one too old to tell.
 */
export function provenanceOf(request: FastifyRequest, publicUrl?: string): Provenance {
  const site = request.headers["sec-fetch-site"];
  if (typeof site === "string")
    return site === "same-origin" || site === "none" ? "same-origin" : "cross-site";
  const origin = request.headers.origin;
  if (typeof origin !== "string") return "unknown";
  try {
    // Through URL on all sides, so "localhost:80" and "localhost" compare alike. Behind a
    // proxy that rewrites Host, the shop's public address (PUBLIC_URL) is its origin too.
    const from = new URL(origin).host;
    const own = [`${request.protocol}://${request.host}`, ...(publicUrl ? [publicUrl] : [])];
    return own.some((url) => new URL(url).host === from) ? "same-origin" : "cross-site";
  } catch {
    // "null" (a sandboxed frame, a privacy redirect) or garbage: not us.
    return "cross-site";
  }
}

/**
 * Whether the browser tells where its requests come from (Sec-Fetch-Site): it then says so
 * on its posts too, and its pages need no token of their own.
 */
export function sendsFetchMetadata(request: FastifyRequest): boolean {
  return typeof request.headers["sec-fetch-site"] === "string";
}

/** Whether the request carries (or this response just issued) any cookie a forgery could ride on. */
export function holdsCredentials(request: FastifyRequest): boolean {
  const cookies = request.cookies;
  return (
    credentialCookies.some((name) => cookies[cookieName(request, name)] !== undefined) ||
    issuedCartId(request) !== undefined
  );
}

function forbidden(code: string, message: string): Error {
  return Object.assign(new Error(message), { statusCode: 403, code });
}

declare module "fastify" {
  interface FastifyInstance {
    /** Checks a post's origin and form token; calls next, or sends the 403 page itself. Synchronous. */
    protectForm(request: FastifyRequest, reply: FastifyReply, next: () => void): void;
    sharedFormTokens: SharedFormTokens;
  }
}

export function registerFormProtection(
  app: FastifyInstance,
  tokens: SharedFormTokens,
  tokenOf: (request: FastifyRequest) => string | undefined,
  publicUrl?: string,
): void {
  app.decorate("sharedFormTokens", tokens);
  app.decorate("protectForm", (request: FastifyRequest, reply: FastifyReply, next: () => void) => {
    const provenance = provenanceOf(request, publicUrl);
    if (provenance === "cross-site") {
      reply.send(forbidden("FORM_CROSS_SITE", "A form post from another site"));
      return;
    }
    if (provenance === "same-origin") return next();
    const token = tokenOf(request);
    if (token !== undefined && tokens.isShared(token)) {
      if (tokens.verify(token) && !holdsCredentials(request)) return next();
      reply.send(forbidden("FST_CSRF_INVALID_TOKEN", "Invalid csrf token"));
      return;
    }
    app.csrfProtection(request, reply, next);
  });
}
