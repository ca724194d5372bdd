import type { FastifyInstance, FastifyRequest } from "fastify";
import { defaultLocale, type Locale, localeFromAcceptLanguage } from "../../i18n/locales.ts";
import type { Services } from "../services.ts";

declare module "fastify" {
  interface FastifyRequest {
    locale: Locale;
  }
}

/** The request's language: its route's, else its path's, else the browser's, else the default. */
export function localeOfRequest(request: FastifyRequest, services: Services): Locale {
  const fromRoute = request.routeOptions.config?.locale;
  if (fromRoute) return fromRoute;
  const path = (request.url.split("?")[0] ?? "/").toLowerCase();
  return (
    services.i18n.routes.localeOfPath(path) ??
    localeFromAcceptLanguage(request.headers["accept-language"]) ??
    defaultLocale
  );
}

/** Sets request.locale before anything else reads it. */
export function registerRequestLocale(app: FastifyInstance, services: Services): void {
  app.decorateRequest("locale", defaultLocale);
  // Callback style, not async: a hook on every request should not cost a promise.
  app.addHook("onRequest", (request, _reply, done) => {
    request.locale = localeOfRequest(request, services);
    done();
  });
}
