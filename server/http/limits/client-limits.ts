import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { StoreLimits } from "../../config.ts";
import type { Translate } from "../../i18n/translate.ts";
import type { FormRateLimit } from "./form-rate-limit.ts";
import { limitKey } from "./shared-counters.ts";

/**
 * How much one client address may store, over a window: a request without cookies is a new
 * shopper every time, so only the address can bound carts, photos and projects it makes.
 */
export interface ClientLimits {
  /** New carts, per hour. */
  carts: FormRateLimit;
  /** Posts that change a cart (add, quantity, remove), per minute. */
  cartChanges: FormRateLimit;
  /** Delivery addresses saved, per 10 minutes. */
  addresses: FormRateLimit;
  /** Photos kept, counted per file, per hour. */
  uploads: FormRateLimit;
  /** New photo-book projects, per hour. */
  projects: FormRateLimit;
  /** Analytics events stored, per minute. */
  analyticsEvents: FormRateLimit;
}

const minute = 60_000;
const hour = 60 * minute;

/**
 * The limits, made on first use: services are built before the rate-limit plugin is
 * registered, and whichever store it was given (memory, or Redis shared by every instance)
 * is the one they count in, each under a name of its own (limitKey).
 */
export function clientLimits(app: FastifyInstance, limits: StoreLimits): ClientLimits {
  const named = (name: string, max: number, timeWindow: number): FormRateLimit => {
    let limit: FormRateLimit | undefined;
    return (request, options) => {
      limit ??= app.createRateLimit({
        max,
        timeWindow,
        keyGenerator: limitKey(name),
      });
      return limit(request, options);
    };
  };
  return {
    carts: named("carts", limits.cartsPerClient, hour),
    cartChanges: named("cart-changes", limits.cartChangesPerClient, minute),
    addresses: named("addresses", limits.addressesPerClient, 10 * minute),
    uploads: named("uploads", limits.uploadsPerClient, hour),
    projects: named("projects", limits.projectsPerClient, hour),
    analyticsEvents: named("analytics-events", limits.analyticsEventsPerClient, minute),
  };
}

/**
 * Counts one more (a post, a file, an event) against a limit. Within it: undefined. Over
 * it: the seconds until the client may try again, with Retry-After set and a log line; the
 * route then answers 429 with its own page and everything typed.
 */
export async function overClientLimit(
  limit: FormRateLimit,
  request: FastifyRequest,
  reply: FastifyReply,
  what: string,
): Promise<number | undefined> {
  const rate = await limit(request);
  if (rate.isAllowed || !rate.isExceeded) return undefined;
  const seconds = Math.max(1, rate.ttlInSeconds);
  reply.header("retry-after", String(seconds));
  request.log.info({ key: rate.key }, `${what}: client over its limit`);
  return seconds;
}

/**
 * Whether one more would still fit, without counting it: a post can then be turned away
 * before it stores anything (its files), and counted only once it really stores. Over the
 * limit: the seconds to wait, with Retry-After set.
 */
export async function clientLimitReached(
  limit: FormRateLimit,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<number | undefined> {
  const rate = await limit(request, { increment: false });
  if (rate.isAllowed || rate.remaining > 0) return undefined;
  const seconds = Math.max(1, rate.ttlInSeconds);
  reply.header("retry-after", String(seconds));
  return seconds;
}

/** "Probeer het over 12 minuten opnieuw.": the wait in whole minutes, at least one. */
export function retryText(t: Translate, seconds: number): string {
  return t("limits.retry", { count: Math.max(1, Math.ceil(seconds / 60)) });
}
