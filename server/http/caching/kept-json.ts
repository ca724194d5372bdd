import { constants, gzipSync } from "node:zlib";
import type { FastifyReply } from "fastify";
import { acceptsGzip } from "./page-cache.ts";

interface EncodedJson {
  key: string;
  json: Buffer;
  gzip: Buffer;
}

/**
 * JSON answers that many requests share, encoded and compressed once while their key
 * stands instead of once per request, which @fastify/compress would do (brotli, about
 * half a millisecond for a few kB). Each name keeps only the answer for its latest key.
 */
export function keptJson(): (
  reply: FastifyReply,
  name: string,
  key: string,
  make: () => unknown,
) => FastifyReply {
  const kept = new Map<string, EncodedJson>();
  return (reply, name, key, make) => {
    let answer = kept.get(name);
    if (answer?.key !== key) {
      const json = Buffer.from(JSON.stringify(make()), "utf8");
      answer = { key, json, gzip: gzipSync(json, { level: constants.Z_BEST_COMPRESSION }) };
      kept.set(name, answer);
    }
    reply.type("application/json; charset=utf-8").header("vary", "Accept-Encoding");
    // Already compressed: @fastify/compress passes an encoded reply through untouched.
    if (acceptsGzip(reply.request.headers["accept-encoding"])) {
      return reply.header("content-encoding", "gzip").send(answer.gzip);
    }
    return reply.send(answer.json);
  };
}
