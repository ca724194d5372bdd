import type { FastifyRequest } from "fastify";
import type { Services } from "../services.ts";

/** A Host header as browsers send it: a domain name or an IP address, and perhaps a port. */
const plainHost =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

/**
 * The origin for absolute links (canonical, hreflang, share links, structured data).
 * Without PUBLIC_URL it comes from the request, so anyone can name another; the page
 * cache keys on it (see page()), and a header that is no plain host (one meant to
 * smuggle a path or markup into links) gives way to the shop's own local address.
 */
export function originOf(request: FastifyRequest, services: Services): string {
  const { publicUrl, port } = services.config;
  if (publicUrl) return publicUrl;
  const asked = request.host;
  return `${request.protocol}://${plainHost.test(asked) ? asked.toLowerCase() : `localhost:${port}`}`;
}
