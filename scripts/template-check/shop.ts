import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { buildApp, paths } from "../../server/app.ts";
import { readConfig } from "../../server/config.ts";
import { type Catalogue, loadCatalogue } from "../../server/domain/catalogue.ts";
import { type Faq, loadFaq } from "../../server/domain/faq.ts";
import { type Database, openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";

/** Set on every answer of the check's shop: the page template that rendered it. */
export const viewHeader = "x-template-check-view";
/** Set on every answer: the request's id, to find what the shop logged about it. */
export const requestHeader = "x-template-check-request";
/**
 * A request with this header is answered right after routing (204: a route takes it, 404:
 * none does), so checking where a form posts runs no handler and changes nothing.
 */
export const probeHeader = "x-template-check-probe";

export interface CheckShop {
  app: FastifyInstance;
  catalogue: Catalogue;
  faq: Faq;
  /** The shop's database: where the journey reads the mails a shopper would open. */
  database: Database;
  /** The views folder the shop renders from. */
  views: string;
  /** What the shop logged as an error while answering this request (a 500's cause). */
  failure(requestId: string | undefined): string | undefined;
  close(): Promise<void>;
}

/**
 * The whole shop in this process, as the tests build it: a fresh in-memory database, a
 * temporary data folder, the pattern library on, and template errors shown as boxes in
 * the page rather than left out.
 */
export async function openShop(views: string = paths.views): Promise<CheckShop> {
  if (!existsSync(resolve(paths.static, "build", "manifest.json"))) {
    throw new Error(
      `${relative(process.cwd(), resolve(paths.static, "build", "manifest.json"))} is missing: run npm run build first`,
    );
  }
  const dataDir = mkdtempSync(join(tmpdir(), "template-check-"));
  const config = readConfig({
    COOKIE_SECRET: randomBytes(24).toString("base64url"),
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    PATTERN_LIBRARY: "true",
  });
  const catalogue = loadCatalogue(config.cataloguePath);
  const faq = loadFaq(config.faqDir);
  const database = openDatabase("sqlite::memory:");
  await migrateToLatest(database);

  const failures = new Map<string, string>();
  const errorLog = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) {
        if (!line) continue;
        try {
          const entry = JSON.parse(line) as { reqId?: string; err?: { message?: string }; msg?: string };
          if (entry.reqId && !failures.has(entry.reqId)) {
            failures.set(entry.reqId, entry.err?.message ?? entry.msg ?? "error");
          }
        } catch {
          // Not a log line of the shop's logger: nothing to tie to a page.
        }
      }
      done();
    },
  });

  const app = await buildApp({
    config,
    catalogue,
    faq,
    database,
    logger: { level: "error", stream: errorLog },
    views,
    templateErrors: "box",
  });
  app.addHook("onRequest", async (request, reply) => {
    reply.header(requestHeader, String(request.id));
    if (request.headers[probeHeader]) return reply.code(request.routeOptions.url ? 204 : 404).send();
    const render = reply.viewAsync;
    reply.viewAsync = function (this: typeof reply, page: unknown, ...rest: unknown[]) {
      if (typeof page === "string") this.header(viewHeader, page);
      return (render as (...args: unknown[]) => Promise<string>).call(this, page, ...rest);
    } as typeof reply.viewAsync;
  });
  await app.ready();

  return {
    app,
    catalogue,
    faq,
    database,
    views,
    failure: (requestId) => (requestId ? failures.get(requestId) : undefined),
    async close() {
      await app.close();
      await database.close().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
