import type { IncomingMessage } from "node:http";

const overridable = new Set(["PUT", "PATCH", "DELETE"]);

/**
 * Ajax forms send other methods as POST with X-HTTP-Method-Override. Fastify routes on
 * the method before any hook runs, so this is applied in rewriteUrl, and only for the
 * three methods that HTML forms cannot send.
 */
export function applyMethodOverride(req: IncomingMessage): string {
  const override = req.headers["x-http-method-override"];
  if (req.method === "POST" && typeof override === "string") {
    const method = override.trim().toUpperCase();
    if (overridable.has(method)) req.method = method;
  }
  return req.url ?? "/";
}
