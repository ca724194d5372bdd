import type { FastifyServerOptions } from "fastify";
import type { Config } from "../../config.ts";

/**
 * What Fastify gets for TRUST_PROXY (checked by parseTrustProxy in config.ts). A hop count
 * becomes a function believing that many proxies counted from the connection inward, so
 * request.ip is the entry the last of them appended (the right-most) and whatever a client
 * wrote to its left is never read. Fastify itself, given a bare number, trusts no proxy.
 */
export function trustProxyOption(trust: Config["trustProxy"]): FastifyServerOptions["trustProxy"] {
  if (typeof trust === "number") return (_address: string, hop: number) => hop < trust;
  return trust;
}
