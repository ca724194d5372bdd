import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { defaultSessionLifetimes } from "./domain/session-rules.ts";

/** Everything the shop reads from its environment, with defaults that start it on a laptop. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** Mail delivery over SMTP; without it, mail is written as .eml files under dataDir/mail. */
  smtpUrl: string | undefined;
  /** The From address of every mail the shop sends. */
  mailFrom: string;
  /** Where the contact form's messages go. */
  supportEmail: string;
  /** Orders placed on a working day before this time (HH:MM, shop time) go into production that day. */
  orderCutOff: string;
  /** Contact messages one client may post per 10 minutes. */
  contactRateLimit: number;
  /**
   * Sign-ups (subscription, account, "save my details"), password resets and changes one
   * client may post per 10 minutes: each valid one costs a scrypt hash, or a mail.
   */
  signupRateLimit: number;
  /** How long a signed-in browser stays signed in: unused, and at the most. */
  sessions: { idleMs: number; absoluteMs: number };
  /** Limits on everything that stores something, per client address and per shopper (see limits below). */
  limits: StoreLimits;
  /** Redis for rate limits and other cross-request counters shared by every instance; in memory without it. */
  redisUrl: string | undefined;
  /** Images declaring more pixels than this are refused from their header, before any decode. */
  uploadMaxPixels: number;
  /** A photo decode taking longer than this is abandoned and the shopper told so. */
  uploadDecodeTimeoutMs: number;
  /** Bytes of originals the instance keeps at most, everyone's together; past it, new photos are refused. */
  uploadStorageMaxBytes: number;
  /** What the clean-up job keeps, in days. */
  retention: Retention;
  cookieSecret: string;
  imageHost: string;
  logLevel: string;
  /**
   * The shop's own origin, such as https://www.fotohoek.nl: every absolute link (mails,
   * canonical, the payment provider's redirect and webhook) is built from it. Required in
   * production; without it links name this machine (server/http/rendering/origin.ts).
   */
  publicUrl: string | undefined;
  /**
   * Which proxies in front of the shop to believe about the client's address (X-Forwarded-For)
   * and protocol: false (none), a number of hops, or their addresses and CIDR ranges.
   */
  trustProxy: false | number | string[];
  /** Which payment provider takes the shop's payments (server/payments/index.ts). */
  payments: PaymentSettings;
  /**
   * Where security researchers report a weakness (/.well-known/security.txt, RFC 9116): a
   * mailto: or https: address; the company's e-mail (content/company.json) when unset.
   */
  securityContact: string | undefined;
  /** When security.txt stops being valid (its Expires): a fixed date, by default 364 days after start-up. */
  securityTxtExpires: Date;
  /** A production start (productionReason): PUBLIC_URL and PAYMENT_PROVIDER were required. */
  production: boolean;
  /** NODE_ENV=development (npm run dev): templates re-read, template errors shown in place. */
  development: boolean;
  /** The pattern library page for content editors: on in development, off in production unless asked for. */
  patternLibrary: boolean;
  dataDir: string;
  cataloguePath: string;
  /** The FAQ's content files, one per locale (content/faq/nl.json, de.json). */
  faqDir: string;
  /** Where the 360-degree viewer's frames are (scripts/generate-360-frames.ts writes them). */
  framesDir: string;
}

/**
 * Limits on paths that store something. "PerClient" counts per client address over the
 * window named; "PerShopper" caps what one shopper (cookie) keeps. Generous enough that a
 * family behind one home router never meets them.
 */
export interface StoreLimits {
  /** New carts (shoppers without a cart who add something) per client per hour. */
  cartsPerClient: number;
  /** Cart changes (add, quantity, remove) per client per minute. */
  cartChangesPerClient: number;
  /** Distinct lines one cart may hold. */
  linesPerCart: number;
  /** Delivery addresses saved per client per 10 minutes. */
  addressesPerClient: number;
  /** Photos uploaded per client per hour. */
  uploadsPerClient: number;
  /** Bytes of photos stored per client per hour (an IPv6 client counts per /64). */
  uploadBytesPerClient: number;
  /** New photo projects per client per hour. */
  projectsPerClient: number;
  /** Analytics events stored per client per minute. */
  analyticsEventsPerClient: number;
}

export interface Retention {
  /** Analytics events are kept one by one this long, then only as daily counts per event. */
  analyticsRawDays: number;
  /** Uploaded photos that never became part of a project are deleted after this long. */
  stagedUploadDays: number;
  /** Photo projects without photos are deleted after this long. */
  emptyProjectDays: number;
  /**
   * A sent mail keeps its subject, addresses and text (and its .eml file) this long; then
   * only its kind, language, times and status stay.
   */
  mailBodyDays: number;
}

export interface PaymentSettings {
  /** test: the built-in test provider, which never moves money; mollie: real payments. */
  provider: "test" | "mollie";
  /** test_… or live_…; set exactly when the provider is mollie. */
  mollieApiKey?: string;
}

/** The names this machine answers to: a start that links only to these is no public shop. */
const ownHostnames = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether a host (as URL.hostname gives it, or a Host header without its port) names this machine. */
function isOwnHostname(hostname: string): boolean {
  return ownHostnames.has(hostname.toLowerCase());
}

/**
 * Whether this start serves the public, and so must not take orders by accident: NODE_ENV
 * set to anything but development or test (prod, Production and production alike), or a
 * PUBLIC_URL that is https or names another machine. An unset NODE_ENV is no production
 * start, so `npm start` on a laptop works without settings; an http PUBLIC_URL on this
 * machine, as tests and tools use, is none either.
 */
export function productionReason(
  nodeEnv: string | undefined,
  publicUrl: string | undefined,
): string | undefined {
  if (nodeEnv && nodeEnv !== "development" && nodeEnv !== "test") return `NODE_ENV=${nodeEnv}`;
  if (!publicUrl) return undefined;
  const url = new URL(publicUrl);
  if (url.protocol === "https:") return "PUBLIC_URL is https";
  if (!isOwnHostname(url.hostname)) return `PUBLIC_URL names ${url.host}`;
  return undefined;
}

/**
 * PAYMENT_PROVIDER, MOLLIE_API_KEY and PUBLIC_URL. The test provider is the default so the
 * shop starts on a laptop without an account anywhere; but a production start must say
 * which provider it means, so a public shop never marks orders paid that nobody paid, and
 * must name its address, so no link in a mail and no webhook is built from what a request
 * claims as its Host. Both are asked for in one line, so one fix starts the shop.
 */
export function paymentSettings(
  provider: "test" | "mollie" | undefined,
  mollieApiKey: string | undefined,
  production: { reason: string | undefined; publicUrl: string | undefined },
): PaymentSettings {
  const { reason, publicUrl } = production;
  if (reason !== undefined && (provider === undefined || publicUrl === undefined)) {
    const needs = [
      ...(provider === undefined
        ? [
            `environment variable PAYMENT_PROVIDER: must be set when ${reason} (a production start): mollie (with MOLLIE_API_KEY) for real payments, or test for a shop that takes no real orders`,
          ]
        : []),
      ...(publicUrl === undefined
        ? [
            `environment variable PUBLIC_URL: must be set when ${reason} (a production start): the shop's own address, such as https://www.fotohoek.nl, for the links in mails and the payment provider`,
          ]
        : []),
    ];
    throw new ConfigError(needs.join("; "));
  }
  if (provider === "mollie") {
    if (!mollieApiKey) {
      throw new ConfigError(
        "environment variable MOLLIE_API_KEY: must be set when PAYMENT_PROVIDER=mollie (a test_… or live_… key from the Mollie dashboard)",
      );
    }
    return { provider, mollieApiKey };
  }
  return { provider: "test" };
}

/**
 * The one line a start logs when the test provider takes the payments (every page says so
 * too, views/layouts/base.eta): it marks orders paid without any money moving.
 */
export function testPaymentsWarning(config: Pick<Config, "payments" | "production">): string | undefined {
  if (config.payments.provider !== "test") return undefined;
  return config.production
    ? "payments: PAYMENT_PROVIDER=test in a production start: orders are marked paid without any money moving; set PAYMENT_PROVIDER=mollie to take real orders"
    : "payments: the built-in test provider takes them (PAYMENT_PROVIDER unset): orders are marked paid without any money moving; never take real orders with this shop";
}

/** proxy-addr's names for the private ranges. */
const namedRanges = new Set(["loopback", "linklocal", "uniquelocal"]);

/** An address or CIDR range proxy-addr can compile (it would stop start-up on anything else, without naming the setting). */
function isProxyAddress(entry: string): boolean {
  if (namedRanges.has(entry.toLowerCase())) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits >= 1 && bits <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: a hop count ("1": the one proxy in front), or a comma-separated list of
 * proxy addresses and CIDR ranges. "true" would believe every X-Forwarded-For entry,
 * which the client writes itself, so it is refused with what to set instead.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const text = (value ?? "").trim();
  if (text === "" || text === "false" || text === "0") return false;
  if (text === "true") {
    throw new ConfigError(
      'environment variable TRUST_PROXY: "true" trusts addresses any client can forge; set the number of proxies in front of the shop (such as 1) or their addresses (such as 10.0.0.0/8,127.0.0.1)',
    );
  }
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(",").map((entry) => entry.trim());
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    throw new ConfigError(
      `environment variable TRUST_PROXY: "${wrong}" is neither a hop count nor an IP address or CIDR range (such as 1, or 10.0.0.0/8,127.0.0.1)`,
    );
  }
  // proxy-addr knows its named ranges in lower case only.
  return entries.map((entry) => (namedRanges.has(entry.toLowerCase()) ? entry.toLowerCase() : entry));
}

const megabyte = 1024 * 1024;

/** How long security.txt stays valid when SECURITY_TXT_EXPIRES is unset: just under RFC 9116's year. */
export const securityTxtDefaultDays = 364;

const positive = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

export const projectRoot = resolve(dirname(new URL(import.meta.url).pathname), "..");

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("localhost"),
  DATABASE_URL: z.string().min(1).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must be an SMTP address such as smtp://user:pass@mail.example.nl:587")
    .optional(),
  MAIL_FROM: z
    .string()
    .regex(/^[^\r\n]+@[^\r\n]+$/, "must be one address, such as Fotohoek <klantenservice@fotohoek.nl>")
    .default("Fotohoek <klantenservice@fotohoek.nl>"),
  SUPPORT_EMAIL: z.email("must be an e-mail address").default("klantenservice@fotohoek.nl"),
  ORDER_CUTOFF: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time such as 15:00")
    .default("15:00"),
  CONTACT_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  SIGNUP_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  SESSION_IDLE_HOURS: positive(defaultSessionLifetimes.idleMs / 3_600_000),
  SESSION_MAX_DAYS: positive(defaultSessionLifetimes.absoluteMs / 86_400_000),
  CART_RATE_LIMIT: positive(60),
  CART_CHANGE_RATE_LIMIT: positive(120),
  CART_LINE_LIMIT: positive(100),
  ADDRESS_RATE_LIMIT: positive(30),
  UPLOAD_RATE_LIMIT: positive(1000),
  UPLOAD_BYTES_PER_CLIENT_MB: positive(2048),
  PROJECT_RATE_LIMIT: positive(30),
  ANALYTICS_RATE_LIMIT: positive(300),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^\s]+$/, "must be a Redis address such as redis://127.0.0.1:6379")
    .optional(),
  UPLOAD_MAX_PIXELS: positive(50_000_000),
  UPLOAD_DECODE_TIMEOUT_MS: positive(20_000),
  UPLOAD_STORAGE_MAX_GB: positive(100),
  ANALYTICS_RAW_DAYS: positive(90),
  STAGED_UPLOAD_DAYS: positive(7),
  EMPTY_PROJECT_DAYS: positive(30),
  MAIL_BODY_DAYS: positive(30),
  COOKIE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  IMAGE_HOST: z
    .string()
    .regex(/^(https?:\/\/[^/\s]+)?$/, "must be an origin such as https://images.example.nl, or empty")
    .default(""),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s?#]+\/?$/, "must be the shop's origin, such as https://www.fotohoek.nl")
    .optional(),
  TRUST_PROXY: z.string().optional(),
  SECURITY_CONTACT: z
    .string()
    .regex(
      /^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s]+)$/,
      "must be a mailto: or https: address, such as mailto:security@fotohoek.nl",
    )
    .optional(),
  SECURITY_TXT_EXPIRES: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?$/, "must be a date such as 2027-06-30")
    .refine((text) => !Number.isNaN(Date.parse(text)), "must be a date such as 2027-06-30")
    .refine(
      (text) => Date.parse(text) > Date.now(),
      "must be a date in the future (security.txt must not be expired)",
    )
    .optional(),
  PAYMENT_PROVIDER: z.enum(["test", "mollie"], { error: "must be test or mollie" }).optional(),
  MOLLIE_API_KEY: z
    .string()
    .regex(/^(test|live)_[A-Za-z0-9]{20,}$/, "must be a Mollie API key, test_… or live_…")
    .optional(),
  // Unset is no production start (see productionReason): `npm start` needs no settings.
  NODE_ENV: z.string().optional(),
  PATTERN_LIBRARY: z.enum(["true", "false"]).optional(),
  DATA_DIR: z.string().min(1).optional(),
  CATALOGUE_PATH: z.string().min(1).optional(),
  FAQ_DIR: z.string().min(1).optional(),
  FRAMES_DIR: z.string().min(1).optional(),
});

export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Without COOKIE_SECRET the secret is made once and kept in the data folder, so carts
 * survive a restart. Several instances must share one secret and set it explicitly.
 */
function persistentSecret(dataDir: string): string {
  const file = resolve(dataDir, "cookie-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`environment variable ${issue?.path.join(".")}: ${issue?.message}`);
  }
  const e = parsed.data;
  const dataDir = resolve(projectRoot, e.DATA_DIR ?? "data");
  const publicUrl = e.PUBLIC_URL?.replace(/\/$/, "");
  const reason = productionReason(e.NODE_ENV, publicUrl);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${resolve(dataDir, "shop.db")}`,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    orderCutOff: e.ORDER_CUTOFF,
    contactRateLimit: e.CONTACT_RATE_LIMIT,
    signupRateLimit: e.SIGNUP_RATE_LIMIT,
    sessions: { idleMs: e.SESSION_IDLE_HOURS * 3_600_000, absoluteMs: e.SESSION_MAX_DAYS * 86_400_000 },
    limits: {
      cartsPerClient: e.CART_RATE_LIMIT,
      cartChangesPerClient: e.CART_CHANGE_RATE_LIMIT,
      linesPerCart: e.CART_LINE_LIMIT,
      addressesPerClient: e.ADDRESS_RATE_LIMIT,
      uploadsPerClient: e.UPLOAD_RATE_LIMIT,
      uploadBytesPerClient: e.UPLOAD_BYTES_PER_CLIENT_MB * megabyte,
      projectsPerClient: e.PROJECT_RATE_LIMIT,
      analyticsEventsPerClient: e.ANALYTICS_RATE_LIMIT,
    },
    redisUrl: e.REDIS_URL,
    uploadMaxPixels: e.UPLOAD_MAX_PIXELS,
    uploadDecodeTimeoutMs: e.UPLOAD_DECODE_TIMEOUT_MS,
    uploadStorageMaxBytes: e.UPLOAD_STORAGE_MAX_GB * 1024 * megabyte,
    retention: {
      analyticsRawDays: e.ANALYTICS_RAW_DAYS,
      stagedUploadDays: e.STAGED_UPLOAD_DAYS,
      emptyProjectDays: e.EMPTY_PROJECT_DAYS,
      mailBodyDays: e.MAIL_BODY_DAYS,
    },
    cookieSecret: e.COOKIE_SECRET ?? persistentSecret(dataDir),
    imageHost: e.IMAGE_HOST,
    logLevel: e.LOG_LEVEL,
    publicUrl,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    payments: paymentSettings(e.PAYMENT_PROVIDER, e.MOLLIE_API_KEY, { reason, publicUrl }),
    securityContact: e.SECURITY_CONTACT,
    // RFC 9116 asks for a fixed date, less than a year ahead: so a start that sets none gets one.
    securityTxtExpires: e.SECURITY_TXT_EXPIRES
      ? new Date(e.SECURITY_TXT_EXPIRES)
      : new Date(Date.now() + securityTxtDefaultDays * 86_400_000),
    production: reason !== undefined,
    development: e.NODE_ENV === "development",
    patternLibrary: e.PATTERN_LIBRARY ? e.PATTERN_LIBRARY === "true" : e.NODE_ENV === "development",
    dataDir,
    cataloguePath: resolve(projectRoot, e.CATALOGUE_PATH ?? "content/catalogue.json"),
    faqDir: resolve(projectRoot, e.FAQ_DIR ?? "content/faq"),
    framesDir: resolve(projectRoot, e.FRAMES_DIR ?? "static/360"),
  };
}
