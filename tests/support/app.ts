import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import { buildApp } from "../../server/app.ts";
import { type Config, readConfig } from "../../server/config.ts";
import { loadCatalogue } from "../../server/domain/catalogue.ts";
import type { TemplateErrorMode } from "../../server/http/rendering/template-contracts.ts";
import { type Database, openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";

export const testSecret = "test-cookie-secret-0123456789abcdef0123";

export function testConfig(env: Record<string, string> = {}): Config {
  return readConfig({
    COOKIE_SECRET: testSecret,
    DATA_DIR: mkdtempSync(join(tmpdir(), "shop-test-")),
    LOG_LEVEL: "silent",
    ...env,
  });
}

export interface TestShop {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** The whole shop on a fresh in-memory SQLite database (or a file, or the one given), driven through app.inject. */
export async function testShop(
  options: {
    env?: Record<string, string>;
    beforeReady?: (app: FastifyInstance) => void;
    logger?: FastifyServerOptions["logger"];
    /** The shop's clock, for pages that depend on the time (delivery times). */
    now?: () => Date;
    mailQueued?: () => void;
    /** How the shop waits before a slowed answer: a test counts the waits instead of sitting them out. */
    sleep?: (ms: number) => Promise<void>;
    /** A database the test opened itself (PostgreSQL, say), already migrated; closed with the shop. */
    database?: Database;
    /**
     * SQLite in a file in the shop's data folder, as `npm start` runs it: the reads of committed
     * data on every page go through the file's second, read-only connection (database.ts).
     */
    sqliteFile?: boolean;
    /** A copy of views/ with a template mistake in it. */
    views?: string;
    templateErrors?: TemplateErrorMode;
  } = {},
): Promise<TestShop> {
  const config = testConfig(options.env);
  const database =
    options.database ??
    openDatabase(options.sqliteFile ? `sqlite://${join(config.dataDir, "shop.db")}` : "sqlite::memory:");
  if (!options.database) await migrateToLatest(database);
  const app = await buildApp({
    config,
    catalogue: loadCatalogue(config.cataloguePath),
    database,
    logger: options.logger ?? false,
    now: options.now,
    mailQueued: options.mailQueued,
    ...(options.sleep ? { sleep: options.sleep } : {}),
    views: options.views,
    templateErrors: options.templateErrors,
  });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close().catch(() => {});
    },
  };
}

/** A signed cookie value as the shop itself would set it. */
export function signed(app: FastifyInstance, value: string): string {
  return app.signCookie(value);
}
