import { createRequire } from "node:module";
import {
  type FastifyRateLimitStoreCtor,
  normalizeIP,
  type RateLimitPluginOptions,
} from "@fastify/rate-limit";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { Redis } from "ioredis";
import { type AmountCounters, memoryAmountCounters, redisAmountCounters } from "./amount-counters.ts";

/**
 * Where the rate limits count: in Redis with REDIS_URL, so every instance sees the same
 * numbers; in this process's memory without it. Each limit counts under a key of its own.
 */
export interface SharedCounters {
  /** Options for @fastify/rate-limit: the store, and what to do when it fails. */
  rateLimit: RateLimitPluginOptions;
  /**
   * Running totals per key over a window, counted before the work they guard: bytes uploaded
   * per client, password attempts per account and client (server/accounts/password-back-off.ts).
   */
  amounts: AmountCounters;
  /** Ends the Redis connection (nothing to do in memory). */
  close(): Promise<void>;
}

/**
 * A key generator for app.createRateLimit: the limit's name and the client address. Every
 * limit made that way needs one, because those limits share one key space in the store
 * (a route's own limit is kept apart by its method and path).
 */
export function limitKey(name: string): (request: FastifyRequest) => string {
  return (request) => `${name}:${normalizeIP(request.ip)}`;
}

/** The shop's keys in Redis start with this, after any keyPrefix given in REDIS_URL. */
export const redisNameSpace = "fotohoek:rate-limit:";

type Done = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The plugin's own stores, as its index.js constructs them. */
interface PluginStore {
  incr(key: string, done: Done, timeWindow: number, max: number): void;
  read(key: string, done: Done, timeWindow: number, max: number): void;
}
type LocalStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => PluginStore;
type RedisStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => PluginStore;

// The plugin exports no store classes; these are the ones its `redis` and `cache` options use.
const require = createRequire(import.meta.url);
const LocalStore = require("@fastify/rate-limit/store/LocalStore.js") as LocalStoreClass;
const RedisStore = require("@fastify/rate-limit/store/RedisStore.js") as RedisStoreClass;

/** What the plugin hands a store: its merged settings, and for a route's own limit the route. */
interface LimitSettings {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  cache?: number;
  keyGenerator?: unknown;
  routeInfo?: { method?: string | string[]; url?: string };
}

const unnamed =
  "a limit made with app.createRateLimit needs its own keyGenerator (limitKey(name) in server/http/limits/shared-counters.ts): otherwise it counts together with every other such limit";

/**
 * A store for the plugin: the plugin's own memory or Redis store, one per limit, with a key
 * space per limit. A limit made by createRateLimit without a key generator of its own is
 * refused when it is made: the plugin would give all of those one key space in Redis, so two
 * of them would count each other's requests.
 */
function limitStore(
  make: (settings: LimitSettings, prefix: string) => PluginStore,
  watch: (done: Done) => Done,
) {
  return class LimitStore {
    readonly #settings: LimitSettings;
    readonly #inner: PluginStore | undefined;

    /** The plugin makes the first one from its global settings; every limit is a child of it. */
    constructor(settings: LimitSettings, prefix?: string) {
      this.#settings = settings;
      this.#inner = prefix === undefined ? undefined : make(settings, prefix);
    }

    incr(key: string, done: Done, timeWindow: number, max: number): void {
      if (this.#inner) this.#inner.incr(key, watch(done), timeWindow, max);
      else done(new Error(unnamed));
    }

    read(key: string, done: Done, timeWindow: number, max: number): void {
      if (this.#inner) this.#inner.read(key, watch(done), timeWindow, max);
      else done(new Error(unnamed));
    }

    child(settings: LimitSettings): LimitStore {
      const route = settings.routeInfo;
      if (route?.url !== undefined) return new LimitStore(settings, `${route.method} ${route.url}:`);
      if (settings.keyGenerator === this.#settings.keyGenerator) throw new Error(unnamed);
      return new LimitStore(settings, "");
    }
  };
}

/**
 * The plugin's types say a store's child gets the route's options; it really gets the
 * merged limit settings with the route as `routeInfo`, which is what LimitStore reads.
 */
const asPluginStore = (store: ReturnType<typeof limitStore>) => store as unknown as FastifyRateLimitStoreCtor;

/** "redis://user:secret@host" as "redis://***@host": start-up lines never show a password. */
const withoutPassword = (url: string) => url.replace(/\/\/[^@/]*@/, "//***@");

function describe(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return describe(err.errors[0]);
  return err instanceof Error ? err.message || err.name : String(err);
}

/**
 * Connects before the shop starts, so an unreachable Redis stops start-up with one line,
 * like an unreachable database. A request never waits on Redis: commands are not queued
 * while the connection is down, and a command without an answer gives up after a second.
 */
async function connect(url: string): Promise<Redis> {
  const client = new Redis(url, {
    lazyConnect: false,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  let ready: () => void = () => {};
  let failed: (err: unknown) => void = () => {};
  try {
    await new Promise<void>((resolve, reject) => {
      ready = resolve;
      failed = reject;
      client.once("ready", ready);
      client.once("error", failed);
    });
  } catch (err) {
    // Later attempts may still report; a listener keeps ioredis from printing them.
    client.on("error", () => {});
    client.disconnect();
    throw new Error(`redis ${withoutPassword(url)}: ${describe(err)}`);
  } finally {
    client.removeListener("ready", ready);
    client.removeListener("error", failed);
  }
  return client;
}

/**
 * The counters for the rate limits. With a Redis URL, a failing Redis lets requests through
 * (the shop keeps selling, without limits for a while): one warning when it stops answering,
 * one line when it answers again.
 */
export async function sharedCounters(
  redisUrl: string | undefined,
  log: FastifyBaseLogger,
  /** The shop's clock, for the running totals in memory. */
  now: () => Date = () => new Date(),
): Promise<SharedCounters> {
  if (!redisUrl) {
    const store = limitStore(
      (settings) =>
        new LocalStore(
          settings.continueExceeding ?? false,
          settings.exponentialBackoff ?? false,
          settings.cache,
        ),
      (done) => done,
    );
    return {
      rateLimit: { store: asPluginStore(store) },
      amounts: memoryAmountCounters(now),
      close: async () => {},
    };
  }

  const client = await connect(redisUrl);
  let down = false;
  const failed = (err: unknown) => {
    if (down) return;
    down = true;
    log.warn({ err }, "Redis does not answer: rate limits let every request through until it does");
  };
  const answered = () => {
    if (!down) return;
    down = false;
    log.info("Redis answers again: rate limits count again");
  };
  client.on("error", failed);
  client.on("ready", answered);

  const store = limitStore(
    (settings, prefix) =>
      new RedisStore(
        settings.continueExceeding ?? false,
        settings.exponentialBackoff ?? false,
        client,
        `${redisNameSpace}${prefix}`,
      ),
    (done) => (err, result) => {
      if (err) failed(err);
      else answered();
      done(err, result);
    },
  );
  return {
    rateLimit: { store: asPluginStore(store), skipOnError: true },
    // Apart from the plugin's keys; like the rate limits, a Redis that does not answer lets the request through.
    amounts: redisAmountCounters(client, `${redisNameSpace}amount:`, { failed, answered }),
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
