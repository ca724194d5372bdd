import type { FastifyReply } from "fastify";
import { holdsCredentials } from "../security/form-protection.ts";
import { acceptsGzip, type CachedPage, pageGzip } from "./page-cache.ts";

/** Sends finished HTML (or gzip bytes, saying so) with the page's status and headers. */
export type SendHtml = (html: string | Buffer, gzip?: boolean) => FastifyReply;

/** Answers with a kept page: gzip straight from the copy where the browser takes it, so a hit compresses nothing. */
export function answerWithKeptPage(reply: FastifyReply, page: CachedPage, send: SendHtml): FastifyReply {
  const request = reply.request;
  const gzip = acceptsGzip(request.headers["accept-encoding"]);
  // A visitor without cookies gets everyone's answer, ready-made, which also lets shared
  // caches keep it (private-caching.ts); only the gzip form is kept ready.
  if (!holdsCredentials(request)) reply.keepReady();
  return gzip ? send(pageGzip(page), true) : send(page.html, false);
}
