import type { IncomingMessage } from "node:http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { defaultLocale, type Locale, localeFromAcceptLanguage } from "../../i18n/locales.ts";
import type { Services } from "../services.ts";

/** Statuses with their own localized explanation; anything else 4xx reads as a bad request. */
const explained = new Set([400, 403, 404, 405, 413, 415, 429]);

/**
 * Browsers ask for HTML when they load a page, and the ajax behaviour asks for it too; curl
 * (star/star), scripts and beacons get one line of text. A client that sends no Accept at
 * all may take anything, and gets the page.
 */
export function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return accept === undefined || /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(accept);
}

function lastResort(reply: FastifyReply, status: number): FastifyReply {
  // Used only when the error page itself cannot render: plain, safe, no details.
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="${defaultLocale}"><meta charset="utf-8"><title>${status}</title><h1>${status}</h1><p><a href="/">Home</a></p></html>`,
    );
}

async function renderError(
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  status: number,
): Promise<FastifyReply> {
  const key = explained.has(status) ? String(status) : status >= 500 ? "500" : "400";
  const t = services.i18n.t[request.locale];
  // Nothing of the request is repeated, in either form: not its address, not its body.
  if (!wantsHtml(request)) {
    return reply
      .code(status)
      .type("text/plain; charset=utf-8")
      .header("content-language", request.locale)
      .send(`${status} ${t(`errors.${key}.title`)}\n`);
  }
  try {
    return await reply.page(
      "pages/error",
      {
        title: t(`errors.${key}.title`),
        heading: t(`errors.${key}.title`),
        message: t(`errors.${key}.message`),
        status,
      },
      { status, noindex: true },
    );
  } catch (err) {
    request.log.error({ err }, "error page failed to render");
    return lastResort(reply, status);
  }
}

/** The shops built in this process, for errors Fastify raises before any of a shop's hooks ran. */
const shops = new WeakMap<FastifyInstance, Services>();

/** Requests Fastify refused before routing, with what their answer must be. */
const refused = new WeakMap<IncomingMessage, { status: number; locale: Locale }>();

/** Where a refused request is routed again; anything else that asks for it is not found. */
const refusedPath = "/_refused";

function localeOfRawRequest(request: FastifyRequest, services: Services): Locale {
  const path = (request.raw.url ?? "/").split("?")[0] ?? "/";
  return (
    services.i18n.routes.localeOfPath(path.toLowerCase()) ??
    localeFromAcceptLanguage(request.headers["accept-language"]) ??
    defaultLocale
  );
}

/**
 * Fastify's frameworkErrors option, for a URL it cannot decode (or a parameter too long).
 * Fastify raises these before routing, so none of the shop's hooks has run: no security
 * headers, no locale, no cookies. Its own answer was JSON repeating the URL. The request
 * is routed once more, as a GET of a path of the shop's own, so every hook runs as for
 * any page and the error page answers; the locale is taken from the address first.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
  request.log.info({ code: error.code, status }, "request refused before routing");
  const services = shops.get(request.server);
  if (!services) {
    void reply.code(status).type("text/plain; charset=utf-8").send(`${status}\n`);
    return;
  }
  refused.set(request.raw, { status, locale: localeOfRawRequest(request, services) });
  // Its body, if any, is never read.
  if (request.raw.method !== "HEAD") request.raw.method = "GET";
  request.raw.url = refusedPath;
  request.server.routing(request.raw, reply.raw);
}

export function registerErrorPages(app: FastifyInstance, services: Services): void {
  shops.set(app, services);
  app.setNotFoundHandler((request, reply) => renderError(request, reply, services, 404));
  app.get(refusedPath, (request, reply) => {
    const answer = refused.get(request.raw);
    if (!answer) return renderError(request, reply, services, 404);
    request.locale = answer.locale;
    return renderError(request, reply, services, answer.status);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, "request failed");
    else request.log.info({ code: error.code, status }, error.message);
    if (reply.sent) return;
    return renderError(request, reply, services, status);
  });
}
