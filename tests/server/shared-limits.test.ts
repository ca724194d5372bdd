import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify from "fastify";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { limitKey, redisNameSpace, sharedCounters } from "../../server/http/limits/shared-counters.ts";
import { type Database, openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { signedUp, signIn } from "../support/accounts.ts";
import { type TestShop, testSecret, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { multipart, photos } from "../support/photos.ts";
import { keysOfThisRun, redisUrl, removeKeysOfThisRun, shopRedisUrl } from "../support/redis.ts";

afterAll(removeKeysOfThisRun);

/**
 * One database both instances use, as several instances of the shop do: one PostgreSQL
 * schema when TEST_DATABASE_URL is set, otherwise one SQLite file.
 */
async function sharedDatabase(): Promise<{ open(): Database; cleanup(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const schema = `test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const first = openDatabase(url, { schema });
    await migrateToLatest(first);
    await first.close();
    return {
      open: () => openDatabase(url, { schema }),
      async cleanup() {
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "shop-shared-"));
  const file = `sqlite://${join(dir, "shop.db")}`;
  const first = openDatabase(file);
  await migrateToLatest(first);
  await first.close();
  return {
    open: () => openDatabase(file),
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let opened: TestShop[] = [];
let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const shop of opened) await shop.close();
  for (const cleanup of cleanups) await cleanup();
  opened = [];
  cleanups = [];
});

/** Two instances of the shop on one database, with the settings given. */
async function twoInstances(env: Record<string, string>): Promise<[TestShop, TestShop]> {
  const database = await sharedDatabase();
  cleanups.push(database.cleanup);
  // The sign-in back-off's waits are not sat out.
  const sleep = async () => {};
  const a = await testShop({ database: database.open(), env, sleep });
  opened.push(a);
  const b = await testShop({ database: database.open(), env, sleep });
  opened.push(b);
  return [a, b];
}

const contactPath = { nl: "/klantenservice/contact", de: "/kundenservice/kontakt" };
const message = {
  name: "Anna de Vries",
  email: "anna@example.nl",
  orderNumber: "FH-123456",
  subject: "delivery",
  question: "Wanneer komt mijn fotoboek? Ik heb het vorige week besteld.",
  website: "",
};

/** Opens the contact form on one instance, as a browser does, and posts the message to it. */
async function sendMessage(shop: TestShop, options: { lang?: "nl" | "de"; ajax?: boolean } = {}) {
  const lang = options.lang ?? "nl";
  const form = await shop.app.inject({ url: contactPath[lang] });
  const cookie = form.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const token = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? "";
  return shop.app.inject({
    method: "POST",
    url: contactPath[lang],
    headers: {
      cookie,
      "content-type": "application/x-www-form-urlencoded",
      ...(options.ajax ? { "x-requested-with": "XMLHttpRequest" } : {}),
    },
    payload: new URLSearchParams({ ...message, _csrf: token }).toString(),
  });
}

const storedMessages = (shop: TestShop) =>
  shop.database.db.selectFrom("contact_messages").select("id").execute();

const checkPostcode = (shop: TestShop) =>
  shop.app.inject({ url: "/api/postcode-controle?postcode=1234%20AB&country=NL" });

describe("two instances of the shop sharing one Redis", () => {
  it("a client who sends one message through each is refused the third through either, with everything typed kept", async () => {
    const redis = shopRedisUrl();
    const [a, b] = await twoInstances({ CONTACT_RATE_LIMIT: "2", REDIS_URL: redis.url });

    expect((await sendMessage(a)).statusCode).toBe(303);
    expect((await sendMessage(b)).statusCode).toBe(303);

    const third = await sendMessage(a);
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers["retry-after"])).toBeGreaterThan(0);
    expect(third.body).toContain("Je hebt kort na elkaar veel berichten verstuurd.");
    expect(third.body).toContain('value="Anna de Vries"');
    expect(third.body).toContain(`>${message.question}</textarea>`);

    const fourth = await sendMessage(b, { lang: "de", ajax: true });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.headers["x-ajax-fragment"]).toBe("true");
    expect(fourth.body).toContain("Sie haben kurz hintereinander viele Nachrichten gesendet.");
    expect(fourth.body).toContain('value="anna@example.nl"');

    expect(await storedMessages(a)).toHaveLength(2);
    // The counts live in Redis, one key per limit and client, under this run's prefix.
    expect((await keysOfThisRun()).sort()).toEqual(
      expect.arrayContaining([
        `${redis.prefix}${redisNameSpace}contact-messages:127.0.0.1`,
        `${redis.prefix}${redisNameSpace}contact-posts:127.0.0.1`,
      ]),
    );
  });

  it("a client who checks postcodes through both is refused at the route's 120 a minute, counted across them", async () => {
    const [a, b] = await twoInstances({ REDIS_URL: shopRedisUrl().url });
    for (let i = 0; i < 60; i++) {
      expect((await checkPostcode(a)).statusCode).toBe(200);
      expect((await checkPostcode(b)).statusCode).toBe(200);
    }
    expect((await checkPostcode(a)).statusCode).toBe(429);
    expect((await checkPostcode(b)).statusCode).toBe(429);
    // Another client still gets its answer.
    const other = await b.app.inject({
      url: "/api/postcode-controle?postcode=1234%20AB&country=NL",
      remoteAddress: "192.0.2.7",
    });
    expect(other.statusCode).toBe(200);
  });
});

describe("photo bytes on two instances sharing one Redis", () => {
  it("a client's bytes per hour count together: after two photos through either, the third through the other is refused", async () => {
    const redis = shopRedisUrl();
    const [a, b] = await twoInstances({ UPLOAD_BYTES_PER_CLIENT_MB: "1", REDIS_URL: redis.url });
    // 0.37 MB each: two fit in 1 MB, a third does not.
    const upload = async (shop: TestShop, filename: string) => {
      const browser = new BrowserSession(shop.app);
      await browser.get("/fotoboek-maken?fotoboek=exclusief-fotoboek");
      return browser.post(
        "/fotoboek-maken/fotos",
        multipart([{ name: "photo", file: { filename, data: await photos.noisyJpeg(700) } }]),
        { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
      );
    };
    expect((await upload(a, "een.jpg")).statusCode).toBe(200);
    expect((await upload(b, "twee.jpg")).statusCode).toBe(200);
    const third = await upload(a, "drie.jpg");
    expect(third.statusCode).toBe(429);
    expect(third.body).toContain("vanaf je verbinding is het afgelopen uur al meer dan 1 MB aan foto");
    expect(await keysOfThisRun()).toContain(`${redis.prefix}${redisNameSpace}amount:upload-bytes:127.0.0.1`);
  });
});

describe("an account on two instances sharing one Redis and one database", () => {
  it("its failed sign-ins count together, and signing out everywhere through one ends the session on the other", async () => {
    const [a, b] = await twoInstances({ REDIS_URL: shopRedisUrl().url, SIGNUP_RATE_LIMIT: "1000" });
    const onA = await signedUp(a.app, a.database.db, { email: "anna@example.nl" });
    for (let i = 0; i < 10; i++) {
      const through = i % 2 ? b : a;
      expect((await signIn(through.app, "anna@example.nl", `Fout wachtwoord ${i}!`)).res.statusCode).toBe(
        422,
      );
    }
    expect((await signIn(a.app, "anna@example.nl")).res.statusCode).toBe(429);
    expect((await signIn(b.app, "anna@example.nl")).res.statusCode).toBe(429);

    // The session made through A holds on B: the same cookie, the same database.
    const onB = new BrowserSession(b.app);
    onB.adopt(onA);
    expect((await onB.get("/account")).statusCode).toBe(200);
    await onB.form("/account/overal-uitloggen", {});
    expect((await onA.get("/account")).statusCode).toBe(303);
  });
});

describe("two instances without REDIS_URL", () => {
  it("each count a client on their own, as the README says", async () => {
    const [a, b] = await twoInstances({ CONTACT_RATE_LIMIT: "1" });
    expect((await sendMessage(a)).statusCode).toBe(303);
    // Shared, this would be the second message of a limit of one.
    expect((await sendMessage(b)).statusCode).toBe(303);
    expect((await sendMessage(a)).statusCode).toBe(429);
    expect((await sendMessage(b)).statusCode).toBe(429);
    expect(await storedMessages(a)).toHaveLength(2);
  });
});

describe("a limit made with app.createRateLimit", () => {
  it("without a key generator of its own is refused when it is made, in memory and in Redis", async () => {
    for (const url of [undefined, shopRedisUrl().url]) {
      const app = Fastify({ logger: false });
      const counters = await sharedCounters(url, app.log);
      app.addHook("onClose", counters.close);
      await app.register(fastifyRateLimit, { global: false, ...counters.rateLimit });
      await app.ready();
      expect(() => app.createRateLimit({ max: 5, timeWindow: 60_000 })).toThrow(/needs its own keyGenerator/);
      expect(() =>
        app.createRateLimit({ max: 5, timeWindow: 60_000, keyGenerator: limitKey("a") }),
      ).not.toThrow();
      await app.close();
    }
  });
});

/** A TCP relay in front of Redis that the test can cut and restore, as a failing network would. */
async function relayToRedis(): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void> }> {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let relay: Server | undefined;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const server = createServer((client) => {
        const upstream = connect(Number(target.port || 6379), target.hostname);
        sockets.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
        client.pipe(upstream).pipe(client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        const address = server.address();
        if (typeof address === "object" && address) port = address.port;
        relay = server;
        resolve();
      });
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      const closed = new Promise<void>((resolve) => (relay ? relay.close(() => resolve()) : resolve()));
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await closed;
    },
    restore: start,
  };
}

/** Log lines of a shop, as pino writes them. */
function logLines(): {
  logger: { level: string; stream: { write(line: string): void } };
  messages(): string[];
} {
  const lines: string[] = [];
  return {
    logger: { level: "info", stream: { write: (line) => void lines.push(line) } },
    messages: () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg),
  };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`waited in vain for ${what}`);
}

describe("a shop whose Redis stops answering while it runs", () => {
  it("keeps taking messages, warns once, and counts again when Redis is back", async () => {
    const relay = await relayToRedis();
    const log = logLines();
    const database = await sharedDatabase();
    cleanups.push(database.cleanup);
    const shop = await testShop({
      database: database.open(),
      env: { CONTACT_RATE_LIMIT: "1", REDIS_URL: shopRedisUrl(relay.url).url },
      logger: log.logger,
    });
    opened.push(shop);
    cleanups.push(relay.cut);

    expect((await sendMessage(shop)).statusCode).toBe(303);
    await relay.cut();
    // Over the limit of one, but nothing can count them: the shop keeps selling.
    expect((await sendMessage(shop)).statusCode).toBe(303);
    expect((await sendMessage(shop, { lang: "de" })).statusCode).toBe(303);
    const warnings = () => log.messages().filter((m) => m.startsWith("Redis does not answer"));
    expect(warnings()).toHaveLength(1);

    await relay.restore();
    await until(() => log.messages().some((m) => m.startsWith("Redis answers again")), "the reconnection");
    // The count of before the outage is still there.
    expect((await sendMessage(shop)).statusCode).toBe(429);
    expect(warnings()).toHaveLength(1);
    expect(await storedMessages(shop)).toHaveLength(3);
  });
});

describe("a shop whose Redis stops answering while it runs, at the sign-in", () => {
  it("lets a password be checked uncounted, and counts the attempts again when Redis is back", async () => {
    const relay = await relayToRedis();
    const log = logLines();
    const database = await sharedDatabase();
    cleanups.push(database.cleanup);
    const shop = await testShop({
      database: database.open(),
      env: { SIGNUP_RATE_LIMIT: "1000", REDIS_URL: shopRedisUrl(relay.url).url },
      logger: log.logger,
      sleep: async () => {},
    });
    opened.push(shop);
    cleanups.push(relay.cut);
    await signedUp(shop.app, shop.database.db, { email: "anna@example.nl" });

    await relay.cut();
    // Nothing can count the attempt: the password is checked, and the owner is in.
    expect((await signIn(shop.app, "anna@example.nl")).res.statusCode).toBe(303);
    expect((await signIn(shop.app, "anna@example.nl", "Fout wachtwoord 2026!")).res.statusCode).toBe(422);
    const warnings = () => log.messages().filter((m) => m.startsWith("Redis does not answer"));
    expect(warnings()).toHaveLength(1);

    await relay.restore();
    await until(() => log.messages().some((m) => m.startsWith("Redis answers again")), "the reconnection");
    for (let i = 0; i < 10; i++) {
      const { res } = await signIn(shop.app, "anna@example.nl", `Fout wachtwoord ${i}!`);
      expect(res.statusCode).toBe(422);
    }
    expect((await signIn(shop.app, "anna@example.nl")).res.statusCode).toBe(429);
  }, 120_000);
});

/** A port on this machine where nothing listens. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

describe("starting the shop with a Redis that does not answer", () => {
  it("exits non-zero with one line naming Redis, without its password", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      env: {
        PATH: process.env.PATH,
        COOKIE_SECRET: testSecret,
        DATA_DIR: mkdtempSync(join(tmpdir(), "shop-start-")),
        LOG_LEVEL: "info",
        HOST: "127.0.0.1",
        PORT: String(await closedPort()),
        REDIS_URL: `redis://shop:hunter2@127.0.0.1:${await closedPort()}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    const lines = out.split("\n").filter((l) => l.trim() !== "");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "").msg).toMatch(
      /^cannot start: redis redis:\/\/\*\*\*@127\.0\.0\.1:\d+: .*ECONNREFUSED/,
    );
    expect(out).not.toContain("hunter2");
  });
});
