import { chmodSync } from "node:fs";
import { readConfig, testPaymentsWarning } from "./config.ts";
import { loadCatalogue } from "./domain/catalogue.ts";
import { loadPriceList, priceListPath } from "./domain/price-list.ts";
import { createMailSender, type MailSender } from "./mail/sender.ts";
import { mailTransport } from "./mail/transport.ts";
import { openDatabase } from "./store/database.ts";
import { migrateToLatest } from "./store/migrate.ts";
import { makePrivateFolderSync, privateFolderMode } from "./store/private-files.ts";

/** Start-up failures end in one readable line and a non-zero exit, never a stack dump. */
function fail(message: string): never {
  process.stderr.write(
    `${JSON.stringify({ level: 60, time: Date.now(), msg: `cannot start: ${message}` })}\n`,
  );
  process.exit(1);
}

function describe(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return describe(err.errors[0]);
  return err instanceof Error ? err.message || err.name : String(err);
}

async function main(): Promise<void> {
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig();
  } catch (err) {
    return fail(describe(err));
  }

  let catalogue: ReturnType<typeof loadCatalogue>;
  try {
    catalogue = loadCatalogue(config.cataloguePath);
  } catch (err) {
    return fail(`catalogue: ${describe(err)}`);
  }
  try {
    loadPriceList(priceListPath);
  } catch (err) {
    return fail(`prices: ${describe(err)}`);
  }
  // Loaded only now: the modules that price things read the price list as they load.
  const { buildApp } = await import("./app.ts");

  // Everything under it is personal data (the database, mails, photos): the shop's user
  // only. Tightened on every start, which also covers files written before they were private.
  try {
    makePrivateFolderSync(config.dataDir);
    chmodSync(config.dataDir, privateFolderMode);
  } catch (err) {
    return fail(`data folder ${config.dataDir}: ${describe(err)}`);
  }

  const where = config.databaseUrl.replace(/\/\/[^@/]*@/, "//***@");
  let database: ReturnType<typeof openDatabase>;
  try {
    database = openDatabase(config.databaseUrl);
  } catch (err) {
    return fail(`database ${where}: ${describe(err)}`);
  }
  try {
    await database.ping();
    await migrateToLatest(database);
  } catch (err) {
    await database.close().catch(() => {});
    return fail(`database ${where}: ${describe(err)}`);
  }

  let app: Awaited<ReturnType<typeof buildApp>>;
  let mail: MailSender | undefined;
  try {
    app = await buildApp({ config, catalogue, database, mailQueued: () => mail?.wake() });
    // Delivers the outbox: over SMTP_URL, or as .eml files under data/mail/ without it.
    mail = createMailSender({
      db: database.db,
      dialect: database.dialect,
      transport: mailTransport(config),
      log: {
        info: (message: string) => app.log.info(message),
        warn: (message: string) => app.log.warn(message),
        error: (message: string) => app.log.error(message),
      },
    });
  } catch (err) {
    await database.close().catch(() => {});
    return fail(describe(err));
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing requests in flight");
    // A request that hangs must not keep the process alive forever.
    const force = setTimeout(() => {
      app.log.error("shutdown took longer than 10 s; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      // The sender stops alongside the requests: it finishes the mail in hand and hands the
      // rest back, well inside the 10 s. Mail a last request queues waits in the outbox for
      // the next start (or another instance).
      await Promise.all([app.close(), mail?.stop()]);
      await database.close();
      app.log.info("stopped");
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await database.close().catch(() => {});
    return fail(`listen on ${config.host}:${config.port}: ${describe(err)}`);
  }
  mail.start();
  const warning = testPaymentsWarning(config);
  if (warning) app.log.warn(warning);
}

void main();
