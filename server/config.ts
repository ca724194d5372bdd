import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";

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
  /** Contact messages one client may post per 10 minutes (in this process). */
  contactRateLimit: number;
  /** Subscription sign-ups one client may post per 10 minutes (in this process): each valid one costs a scrypt hash. */
  signupRateLimit: number;
  cookieSecret: string;
  imageHost: string;
  logLevel: string;
  publicUrl: string | undefined;
  trustProxy: boolean;
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
  COOKIE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  IMAGE_HOST: z
    .string()
    .regex(/^(https?:\/\/[^/\s]+)?$/, "must be an origin such as https://images.example.nl, or empty")
    .default(""),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  NODE_ENV: z.string().default("production"),
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
    cookieSecret: e.COOKIE_SECRET ?? persistentSecret(dataDir),
    imageHost: e.IMAGE_HOST,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ""),
    trustProxy: e.TRUST_PROXY === "true",
    development: e.NODE_ENV === "development",
    patternLibrary: e.PATTERN_LIBRARY ? e.PATTERN_LIBRARY === "true" : e.NODE_ENV === "development",
    dataDir,
    cataloguePath: resolve(projectRoot, e.CATALOGUE_PATH ?? "content/catalogue.json"),
    faqDir: resolve(projectRoot, e.FAQ_DIR ?? "content/faq"),
    framesDir: resolve(projectRoot, e.FRAMES_DIR ?? "static/360"),
  };
}
