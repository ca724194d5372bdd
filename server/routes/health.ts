import type { FastifyInstance } from "fastify";
import type { Services } from "../http/services.ts";

/** For load balancers and orchestrators: 200 when the database answers, 503 when it does not. */
export function healthRoutes(app: FastifyInstance, { database }: Services): void {
  app.get("/healthz", { config: { csrf: false } }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    try {
      await database.ping();
      return { status: "ok", database: database.dialect };
    } catch (err) {
      request.log.error({ err }, "health check: database unavailable");
      return reply.code(503).send({ status: "unavailable", database: database.dialect });
    }
  });
}
