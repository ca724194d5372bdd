import type { FastifyReply } from "fastify";
import { cookieName, csrfCookieName } from "../cookies/cookie-names.ts";
import { holdsCredentials } from "../security/form-protection.ts";
import {
  acceptsGzip,
  type CachedPage,
  fillPage,
  fillPageGzip,
  secretPageGzip,
  sharedPageGzip,
} from "./page-cache.ts";

/** Sends finished HTML (or gzip bytes, saying so) with the page's status and headers. */
export type SendHtml = (html: string | Buffer, gzip?: boolean) => FastifyReply;

/**
 * Answers with a kept page, its token placeholders filled for this browser: gzip straight
 * from the kept blocks where the browser takes it, so a hit compresses nothing.
 */
export function answerWithKeptPage(reply: FastifyReply, page: CachedPage, send: SendHtml): FastifyReply {
  const request = reply.request;
  const gzip = acceptsGzip(request.headers["accept-encoding"]);
  if (!holdsCredentials(request)) {
    // A visitor without cookies gets everyone's answer, ready-made.
    const shared = reply.server.sharedFormTokens.current();
    // Offered as everyone's answer, which also lets shared caches keep it (private-caching.ts);
    // only the gzip form is kept ready here.
    reply.keepReady();
    if (!gzip)
      return send(
        fillPage(page, () => shared),
        false,
      );
    return send(sharedPageGzip(page, shared), true);
  }
  const token = () => reply.generateCsrf();
  if (!gzip) return send(fillPage(page, token), false);
  // The signed cookie as sent: a browser without one yet gets it set with a new token now.
  const secret = request.cookies[cookieName(request, csrfCookieName)];
  const genuine = (value: string) => request.unsignCookie(value).valid;
  return send(secret ? secretPageGzip(page, secret, token, genuine) : fillPageGzip(page, token), true);
}
