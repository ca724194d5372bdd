import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { overClientLimit } from "./client-limits.ts";

/** A limit made with app.createRateLimit: per client address, in Redis with REDIS_URL (shared-counters.ts). */
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
  return (await overClientLimit(limit, request, reply, what)) !== undefined;
}
