import type { FastifyRequest } from "fastify";
import type { Services } from "../services.ts";

/** A Host header naming this machine: localhost, 127.0.0.1 or [::1], with any port. */
const ownHost = /^(localhost|127\.0\.0\.1|\[::1\])(?::[0-9]{1,5})?$/i;

/**
 * The origin for absolute links: mails (reset, confirm, e-mail change), canonical and
 * hreflang, share links, structured data, and the payment provider's redirect and webhook.
 * It is PUBLIC_URL, which every production start has (server/config.ts). Without it the
 * shop runs on a laptop: the Host header is believed only when it names this machine, so
 * `Host: evil.example` can never put the attacker's host into a mailed reset link or make
 * the shop send its webhook elsewhere; any other Host gets http://localhost:PORT. So the
 * page cache, which keys on the origin, holds at most PUBLIC_URL or a few local origins.
 */
export function originOf(request: FastifyRequest, services: Services): string {
  const { publicUrl, port } = services.config;
  if (publicUrl) return publicUrl;
  const asked = request.host;
  if (ownHost.test(asked)) return `${request.protocol}://${asked.toLowerCase()}`;
  return `http://localhost:${port}`;
}
