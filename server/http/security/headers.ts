import type { IncomingMessage, ServerResponse } from "node:http";
import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import type { FastifyInstance, FastifyRequest } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import type { Config } from "../../config.ts";
import { cookieName, cookieSecure, csrfCookieName, registerCookieNames } from "../cookies/cookie-names.ts";
import { registerFormProtection, sharedFormTokens } from "./form-protection.ts";

function helmetOptions(config: Config): HelmetOptions {
  const imageSources = ["'self'", "data:", ...(config.imageHost ? [config.imageHost] : [])];
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: imageSources,
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        // upgrade-insecure-requests would break plain-http local use; HSTS below covers https.
      },
    },
    // Same-origin images and scripts only; cross-origin isolation would block the image host.
    crossOriginEmbedderPolicy: false,
    // Only a shop that names its https address: on http (a laptop) it would be ignored, and
    // behind a proxy it must not depend on the proxy remembering to add it.
    hsts: config.publicUrl?.startsWith("https://") ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  };
}

/**
 * Browser features no page of the shop uses, turned off for it and every frame: a script
 * that got in cannot ask for the camera or a payment sheet. Kept for the shop itself:
 * fullscreen (the 360 viewer) and web-share (the share button's share sheet).
 */
export const permissionsPolicy = [
  "accelerometer=()",
  "bluetooth=()",
  "camera=()",
  "display-capture=()",
  "fullscreen=(self)",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "web-share=(self)",
  "xr-spatial-tracking=()",
].join(", ");

/**
 * The protective headers Helmet writes for our policy, worked out once. The policy has no
 * per-request part (no nonces), and letting Helmet build the same CSP on every response
 * cost about two thirds of a bare route's throughput.
 */
export function securityHeaders(config: Config): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptions(config))({} as IncomingMessage, response as unknown as ServerResponse, (err) => {
    if (err) throw err;
  });
  headers["permissions-policy"] = permissionsPolicy;
  return headers;
}

export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const headers = securityHeaders(config);
  // Every response, the 404 and error pages included.
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  registerCookieNames(app, config.publicUrl);
  await app.register(fastifyCookie, { secret: config.cookieSecret, parseOptions: {} });

  const tokenOf = (request: FastifyRequest) => {
    const body = request.body as Record<string, unknown> | undefined;
    const fromBody = body && typeof body === "object" ? body._csrf : undefined;
    if (typeof fromBody === "string") return fromBody;
    const header = request.headers["x-csrf-token"];
    return typeof header === "string" ? header : undefined;
  };
  await app.register(fastifyCsrf, {
    cookieKey: cookieName({ server: app }, csrfCookieName),
    cookieOpts: {
      signed: true,
      httpOnly: true,
      sameSite: "lax",
      secure: cookieSecure({ server: app }),
      path: "/",
    },
    getToken: tokenOf,
  });
  // Shared tokens are signed with a key of their own, derived from the cookie secret.
  registerFormProtection(
    app,
    sharedFormTokens(`${config.cookieSecret}:shared-form-tokens`),
    tokenOf,
    config.publicUrl,
  );

  // preHandler, not onRequest: the token sits in the form body, which is parsed by then.
  app.addHook("preHandler", (request, reply, done) => {
    const safe = request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS";
    if (safe || request.routeOptions.config?.csrf === false || !request.routeOptions.url) return done();
    app.protectForm(request, reply, done);
  });
}
