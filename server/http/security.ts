import type { IncomingMessage } from "node:http";
import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyHelmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";

const overridable = new Set(["PUT", "PATCH", "DELETE"]);

/**
 * Ajax forms send other methods as POST with X-HTTP-Method-Override. Fastify routes on
 * the method before any hook runs, so this is applied in rewriteUrl, and only for the
 * three methods that HTML forms cannot send.
 */
export function applyMethodOverride(req: IncomingMessage): string {
  const override = req.headers["x-http-method-override"];
  if (req.method === "POST" && typeof override === "string") {
    const method = override.trim().toUpperCase();
    if (overridable.has(method)) req.method = method;
  }
  return req.url ?? "/";
}

export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const imageSources = ["'self'", "data:", ...(config.imageHost ? [config.imageHost] : [])];
  await app.register(fastifyHelmet, {
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
        // upgrade-insecure-requests would break plain-http local use; HTTPS deployments set HSTS at the proxy.
      },
    },
    // Same-origin images and scripts only; cross-origin isolation would block the image host.
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });

  await app.register(fastifyCookie, { secret: config.cookieSecret, parseOptions: {} });

  await app.register(fastifyCsrf, {
    cookieKey: "_csrf",
    cookieOpts: { signed: true, httpOnly: true, sameSite: "lax", secure: "auto", path: "/" },
    getToken: (request) => {
      const body = request.body as Record<string, unknown> | undefined;
      const fromBody = body && typeof body === "object" ? body._csrf : undefined;
      if (typeof fromBody === "string") return fromBody;
      const header = request.headers["x-csrf-token"];
      return typeof header === "string" ? header : undefined;
    },
  });

  // preHandler, not onRequest: the token sits in the form body, which is parsed by then.
  app.addHook("preHandler", (request, reply, done) => {
    const safe = request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS";
    if (safe || request.routeOptions.config?.csrf === false || !request.routeOptions.url) return done();
    app.csrfProtection(request, reply, done);
  });
}
