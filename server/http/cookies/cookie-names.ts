import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyInstance {
    /** "__Host-" when the shop is served over https (PUBLIC_URL), "" otherwise: see cookieName. */
    cookiePrefix: "" | "__Host-";
  }
}

/** The form secret's cookie (@fastify/csrf-protection), without its prefix. */
export const csrfCookieName = "_csrf";

/**
 * Under an https PUBLIC_URL every cookie of the shop's is a `__Host-` cookie: the browser
 * takes it only with Secure, Path=/ and no Domain, so neither a sibling subdomain nor a
 * plain-http page on the way can set or overwrite it (a planted cart or session). Plain
 * http (the laptop, the tests) cannot set Secure cookies, so the names stay as they are.
 */
export function registerCookieNames(app: FastifyInstance, publicUrl: string | undefined): void {
  app.decorate("cookiePrefix", publicUrl?.startsWith("https://") ? "__Host-" : "");
}

/** The name a cookie has in this shop: `name` itself, or `__Host-name` under https. */
export function cookieName(on: { server: FastifyInstance }, name: string): string {
  return `${on.server.cookiePrefix}${name}`;
}

/** Secure always for a `__Host-` cookie (the browser refuses it otherwise), else as the request came. */
export function cookieSecure(on: { server: FastifyInstance }): true | "auto" {
  return on.server.cookiePrefix === "" ? "auto" : true;
}
