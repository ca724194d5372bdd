import { resolve } from "node:path";
import fastifyCompress from "@fastify/compress";
import fastifyFormbody from "@fastify/formbody";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import fastifyView from "@fastify/view";
import { Eta } from "eta";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { type Config, projectRoot } from "./config.ts";
import type { Catalogue } from "./domain/catalogue.ts";
import { assetResolver, loadManifest } from "./http/assets.ts";
import { registerErrorPages } from "./http/errors.ts";
import { registerGracefulClose } from "./http/graceful-close.ts";
import type { LiveRoutes } from "./http/localized-routes.ts";
import { registerPages } from "./http/pages.ts";
import { applyMethodOverride, registerSecurity } from "./http/security.ts";
import type { Services } from "./http/services.ts";
import { createI18n, loadMessages } from "./i18n/index.ts";
import { analyticsRoutes } from "./routes/analytics.ts";
import { cartRoutes } from "./routes/cart.ts";
import { healthRoutes } from "./routes/health.ts";
import { homeRoutes } from "./routes/home.ts";
import { patternRoutes } from "./routes/patterns.ts";
import { remoteCheckRoutes } from "./routes/remote-checks.ts";
import { cartRepository } from "./store/cart-repository.ts";
import type { Database } from "./store/database.ts";

declare module "fastify" {
  interface FastifyInstance {
    i18n: import("./i18n/index.ts").I18n;
  }
}

export interface AppOptions {
  config: Config;
  catalogue: Catalogue;
  database: Database;
  logger?: FastifyServerOptions["logger"];
}

export const paths = {
  views: resolve(projectRoot, "views"),
  locales: resolve(projectRoot, "locales"),
  static: resolve(projectRoot, "static"),
};

/** Builds the whole shop without listening, so tests can drive it through app.inject. */
export async function buildApp({
  config,
  catalogue,
  database,
  logger,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    rewriteUrl: applyMethodOverride,
    routerOptions: { ignoreTrailingSlash: true },
  });

  const reported = new Set<string>();
  const i18n = createI18n(loadMessages(paths.locales), (key, locale) => {
    if (reported.has(`${locale}:${key}`)) return;
    reported.add(`${locale}:${key}`);
    app.log.warn({ key, locale }, "translation missing");
  });

  const services: Services = {
    config,
    catalogue,
    database,
    i18n,
    carts: cartRepository(database.db),
    asset: assetResolver(() => loadManifest(paths.static), config.development),
  };

  app.decorate("i18n", i18n);
  registerGracefulClose(app);
  await registerSecurity(app, config);
  await app.register(fastifyFormbody);
  // Per-route limits only (config.rateLimit); counted per client address in this process.
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifyCompress, { threshold: 1024 });
  await app.register(fastifyStatic, {
    root: paths.static,
    prefix: "/static/",
    cacheControl: false,
    setHeaders(reply, filePath) {
      // Build output carries its content hash in the name, so it never changes under a URL.
      const hashed =
        filePath.includes(`${resolve(paths.static, "build")}/`) && !filePath.endsWith("manifest.json");
      reply.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "public, max-age=3600");
    },
  });

  // In development templates are read on every render, so an edit shows on reload.
  const eta = new Eta({ views: paths.views, cache: !config.development, autoEscape: true });
  await app.register(fastifyView, {
    engine: { eta },
    root: paths.views,
    production: !config.development,
  });

  const live: LiveRoutes = new Set();
  registerPages(app, services, live);
  registerErrorPages(app, services);

  healthRoutes(app, services);
  homeRoutes(app, services, live);
  cartRoutes(app, services, live);
  remoteCheckRoutes(app, services, live);
  patternRoutes(app, services, live);
  await analyticsRoutes(app, services);

  return app;
}
