// Mixed shopper traffic against two instances on PostgreSQL and Redis, one of them killed
// with SIGKILL halfway, then a count of what the shop promised against what it kept.
// Usage: npm run soak [-- --seconds 600] [-- --shoppers 8] [-- --no-restart]
//
// Each shopper has its own cookies and sends its requests to A and B in turn, so every
// session crosses instances. Halfway B is killed; its requests in flight are "lost with the
// killed instance", and everyone goes on with A. Five seconds later B is started again and
// traffic alternates once more (not with --no-restart). At the end every order number the
// shop redirected to, every contact message it thanked for and every photo it accepted must
// be in the database, no live instance may have answered 5xx, and both instances must stop
// cleanly on SIGTERM. See docs/performance.md.

import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { orderIdOf } from "../server/domain/order-number.ts";
import { Browser, Limited, Lost, NoAnswer, Unexpected } from "./soak/browser.ts";
import { createSchema } from "./soak/database.ts";
import { type Instance, startInstance } from "./soak/instances.ts";
import { type JourneyContext, pickJourney } from "./soak/journeys.ts";
import { soakRedis } from "./soak/redis.ts";
import { failures, report } from "./soak/report.ts";
import { Tally } from "./soak/tally.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const restartAfterMs = 5000;

interface Options {
  seconds: number;
  shoppers: number;
  restart: boolean;
}

function readOptions(argv: string[]): Options {
  const options: Options = { seconds: 60, shoppers: 8, restart: true };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? "").split("=", 2);
    if (flag === "--no-restart") {
      options.restart = false;
      continue;
    }
    if (flag !== "--seconds" && flag !== "--shoppers") {
      throw new Error(`unknown argument ${argv[i]}; use --seconds N, --shoppers N and/or --no-restart`);
    }
    const raw = inline ?? argv[++i];
    const value = Number(raw);
    const least = flag === "--seconds" ? 20 : 1;
    if (!Number.isInteger(value) || value < least)
      throw new Error(`${flag} needs a whole number >= ${least}, got ${raw}`);
    options[flag === "--seconds" ? "seconds" : "shoppers"] = value;
  }
  return options;
}

/** A 1600×1200 JPEG, as a shopper's holiday photo (large enough to print well). */
const photo = () =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#3a7bd5" } })
    .jpeg()
    .toBuffer();

/** The instances render pages that link the built assets; build them once if missing. */
function ensureBuild(): void {
  if (existsSync(join(root, "static/build/manifest.json"))) return;
  const built = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
}

/**
 * Starts an instance, trying again twice when it exits during start-up: a test run's global
 * setup elsewhere in the checkout may be rebuilding static/build at that very moment.
 */
async function startWithRetry(name: string, workDir: string, env: NodeJS.ProcessEnv): Promise<Instance> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startInstance(name, root, workDir, env);
    } catch (err) {
      if (attempt === 3) throw err;
      console.log(`soak: ${name} did not start (${err instanceof Error ? err.message : err}); trying again`);
      await new Promise((done) => setTimeout(done, 2000));
    }
  }
}

/** All traffic comes from 127.0.0.1, so the per-client limits are raised far out of reach. */
function instanceEnv(databaseUrl: string, redisUrl: string, dataDir: string, cookieSecret: string) {
  const high = "1000000";
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    // Production requires the choice to be explicit; the soak's shoppers pay nothing real.
    PAYMENT_PROVIDER: "test",
    LOG_LEVEL: "warn",
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    DATA_DIR: dataDir,
    COOKIE_SECRET: cookieSecret,
    CONTACT_RATE_LIMIT: high,
    SIGNUP_RATE_LIMIT: high,
    CART_RATE_LIMIT: high,
    CART_CHANGE_RATE_LIMIT: high,
    ADDRESS_RATE_LIMIT: high,
    UPLOAD_RATE_LIMIT: high,
    UPLOAD_BYTES_PER_CLIENT_MB: high,
    PROJECT_RATE_LIMIT: high,
    ANALYTICS_RATE_LIMIT: high,
  };
}

async function shopperLoop(live: () => readonly Instance[], context: JourneyContext, until: number) {
  const { tally } = context;
  let browser = new Browser(live, tally);
  while (Date.now() < until) {
    const journey = pickJourney();
    let fresh = journey.freshAfter || Math.random() < 0.25;
    try {
      await journey.run(browser, context);
      tally.journey(journey.name, "done");
    } catch (err) {
      if (err instanceof Limited) tally.journey(journey.name, "limited");
      else if (err instanceof Lost) tally.journey(journey.name, "lost");
      else if (err instanceof NoAnswer) tally.journey(journey.name, "failed");
      else if (err instanceof Unexpected) {
        tally.journey(journey.name, "failed");
        tally.surprise(`${journey.name}: ${err.message}`);
      } else throw err;
      // Half-way through a journey: start over as a new visitor, as a person might.
      fresh = true;
    }
    if (fresh) browser = new Browser(live, tally);
  }
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const databaseUrl = process.env.SOAK_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const redisUrl = process.env.SOAK_REDIS_URL ?? "redis://127.0.0.1:6379";
  ensureBuild();

  const workDir = mkdtempSync(join(tmpdir(), "shop-soak-"));
  const dataDir = join(workDir, "data");
  const redis = await soakRedis(redisUrl);
  const schema = await createSchema(databaseUrl);
  const env = instanceEnv(schema.url, redis.url, dataDir, randomBytes(32).toString("base64url"));
  const instances: Instance[] = [];
  let passed = false;
  try {
    console.log(`soak: schema ${schema.name}, Redis ${redis.url}, data in ${dataDir}`);
    // One after the other: the first one migrates the new schema.
    const a = await startWithRetry("A", workDir, env);
    instances.push(a);
    const b = await startWithRetry("B", workDir, env);
    instances.push(b);
    let live: readonly Instance[] = [a, b];

    const tally = new Tally();
    let messages = 0;
    const runId = randomBytes(3).toString("hex");
    const context: JourneyContext = {
      tally,
      photo: new Blob([new Uint8Array(await photo())], { type: "image/jpeg" }),
      uniqueEmail: () => `soak-${runId}-${++messages}@example.nl`,
    };

    const started = Date.now();
    const until = started + options.seconds * 1000;
    let killedAt: number | undefined;
    let restartedAt: number | undefined;
    let restartError: string | undefined;
    let restarting: Promise<void> = Promise.resolve();
    const killTimer = setTimeout(
      () => {
        live = [a];
        killedAt = Date.now();
        console.log(`soak: SIGKILL to B at ${((killedAt - started) / 1000).toFixed(1)} s`);
        void b.kill();
        if (!options.restart) return;
        restarting = new Promise((done) => setTimeout(done, restartAfterMs))
          .then(async () => {
            const again = await startWithRetry("B after restart", workDir, env);
            instances.push(again);
            live = [a, again];
            restartedAt = Date.now();
            console.log(`soak: B is back at ${((restartedAt - started) / 1000).toFixed(1)} s`);
          })
          .catch((err: unknown) => {
            restartError = err instanceof Error ? err.message : String(err);
          });
      },
      (options.seconds * 1000) / 2,
    );

    console.log(`soak: ${options.shoppers} shoppers for ${options.seconds} s against ${a.url} and ${b.url}`);
    await Promise.all(
      Array.from({ length: options.shoppers }, () => shopperLoop(() => live, context, until)),
    );
    const seconds = (Date.now() - started) / 1000;
    clearTimeout(killTimer);
    await restarting;

    const orderIds = [...tally.ordersPlaced].flatMap((n) => orderIdOf(n) ?? []);
    const emails = [...tally.messagesAccepted];
    const photoIds = [...tally.photosAccepted];
    const orders = await schema.ordersFound(orderIds);
    const messagesFound = await schema.messagesFound(emails);
    const photoRows = await schema.uploadsFound(photoIds);
    const photosFound = photoIds.filter(
      (id) => photoRows.has(id) && existsSync(join(dataDir, "uploads", "originals", id)),
    ).length;

    const exits = new Map<string, number | null>();
    for (const instance of instances.filter((i) => i.killedAt === undefined)) {
      exits.set(instance.name, await instance.stop());
    }
    const errorLogs = new Map(instances.map((i) => [i.name, i.errorLines()]));
    instances.length = 0;

    const findings = {
      seconds,
      shoppers: options.shoppers,
      killedAt: killedAt === undefined ? undefined : (killedAt - started) / 1000,
      restartedAt: restartedAt === undefined ? undefined : (restartedAt - started) / 1000,
      ordersFound: orders.size,
      messagesFound: messagesFound.size,
      photosFound,
      exits,
      errorLogs,
      restartError,
    };
    const reasons = failures(tally, findings);
    console.log(report(tally, findings, reasons));
    passed = reasons.length === 0;
  } finally {
    await Promise.all(instances.map((i) => (i.killedAt === undefined ? i.stop() : undefined)));
    await schema.drop();
    const keys = await redis.clear();
    console.log(`soak: schema ${schema.name} dropped, ${keys} Redis key(s) removed`);
    // The logs stay for a look when the run failed.
    if (passed) rmSync(workDir, { recursive: true, force: true });
    else console.log(`soak: instance logs kept in ${workDir}`);
  }
  return passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`soak: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
