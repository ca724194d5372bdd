import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** A limit made with app.createRateLimit (per client address, in this process). */
export type FormRateLimit = ReturnType<FastifyInstance["createRateLimit"]>;

/**
 * Counts a form post against a limit. True when the client went over it: Retry-After is
 * then set, and the route answers 429 with its own form and everything typed in it, which
 * the plugin's own error answer could not give.
 */
export async function overRateLimit(
  limit: FormRateLimit,
  request: FastifyRequest,
  reply: FastifyReply,
  what: string,
): Promise<boolean> {
  const rate = await limit(request);
  if (rate.isAllowed || !rate.isExceeded) return false;
  reply.header("retry-after", String(rate.ttlInSeconds));
  request.log.info({ key: rate.key }, `${what}: too many posts from one client`);
  return true;
}
