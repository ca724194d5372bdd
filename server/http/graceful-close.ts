import type { FastifyInstance } from "fastify";

/**
 * On close, requests in flight finish, but their keep-alive connections would hold
 * server.close() open until the keep-alive timeout. While draining, responses say
 * "Connection: close" and connections that fall idle are closed at once.
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let draining = false;
  app.addHook("preClose", (done) => {
    draining = true;
    const sweep = setInterval(() => app.server.closeIdleConnections?.(), 100);
    sweep.unref();
    app.server.once("close", () => clearInterval(sweep));
    done();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (draining) reply.header("connection", "close");
    done(null, payload);
  });
}
