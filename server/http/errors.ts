import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { defaultLocale } from "../i18n/locales.ts";
import type { Services } from "./services.ts";

/** Statuses with their own localized explanation; anything else 4xx reads as a bad request. */
const explained = new Set([400, 403, 404, 405, 413, 415, 429]);

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

export function registerErrorPages(app: FastifyInstance, services: Services): void {
  app.setNotFoundHandler((request, reply) => renderError(request, reply, services, 404));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, "request failed");
    else request.log.info({ code: error.code, status }, error.message);
    if (reply.sent) return;
    return renderError(request, reply, services, status);
  });
}
