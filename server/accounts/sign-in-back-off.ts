import { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { signInBackOff, signInDelayMs } from "../domain/session-rules.ts";
import { emailKey } from "../store/account-repository.ts";

/**
 * Failed sign-ins, counted per address and per client in the rate limits' store (Redis with
 * REDIS_URL, so every instance counts together): past a few, each answer waits longer
 * (domain/session-rules.ts), and past the most, sign-in is refused (429) until the window
 * has passed. A right password counts nothing.
 */
export interface SignInBackOff {
  /** Before checking a password: the wait to make, or the seconds until it may be tried again. */
  before(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
  ): Promise<{ delayMs: number } | { retryAfter: number }>;
  /** After a wrong address or password. */
  failed(request: FastifyRequest, email: string): Promise<void>;
}

type Limit = ReturnType<FastifyInstance["createRateLimit"]>;

/** Made on first use: the rate-limit plugin is registered after the services are built. */
export function signInBackOffFor(app: FastifyInstance): SignInBackOff {
  let limits: { account: Limit; client: Limit } | undefined;
  const made = () => {
    limits ??= {
      client: app.createRateLimit({
        max: signInBackOff.perClient,
        timeWindow: signInBackOff.windowMs,
        keyGenerator: (request) => `sign-in-failures-client:${normalizeIP(request.ip)}`,
      }),
      // Its key is the address, which the request carries for it (withAddress).
      account: app.createRateLimit({
        max: signInBackOff.perAccount,
        timeWindow: signInBackOff.windowMs,
        keyGenerator: (request) => `sign-in-failures-account:${(request as Keyed).signInAddress ?? ""}`,
      }),
    };
    return limits;
  };

  const withAddress = (request: FastifyRequest, email: string): FastifyRequest =>
    Object.assign(Object.create(request) as FastifyRequest, { signInAddress: emailKey(email) });

  return {
    async before(request, reply, email) {
      const { client, account } = made();
      const [byClient, byAccount] = await Promise.all([
        client(request, { increment: false }),
        account(withAddress(request, email), { increment: false }),
      ]);
      // The failures counted so far: what each limit has used of its allowance.
      const used = (rate: typeof byClient) => (rate.isAllowed ? 0 : rate.max - rate.remaining);
      const wait = (rate: typeof byClient) => (rate.isAllowed ? 0 : rate.ttlInSeconds);
      const fromClient = used(byClient);
      const forAccount = used(byAccount);
      if (fromClient >= signInBackOff.perClient || forAccount >= signInBackOff.perAccount) {
        const retryAfter = Math.max(1, wait(byClient), wait(byAccount));
        reply.header("retry-after", String(retryAfter));
        return { retryAfter };
      }
      return { delayMs: signInDelayMs(Math.max(fromClient, forAccount)) };
    },

    async failed(request, email) {
      const { client, account } = made();
      await Promise.all([client(request), account(withAddress(request, email))]);
    },
  };
}

interface Keyed {
  signInAddress?: string;
}
