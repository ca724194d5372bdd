import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";

/** Everything the shop reads from its environment, with defaults that start it on a laptop. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  smtpUrl: string | undefined;
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
}

export const projectRoot = resolve(dirname(new URL(import.meta.url).pathname), "..");

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("localhost"),
  DATABASE_URL: z.string().min(1).optional(),
  SMTP_URL: z.string().url().optional(),
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
    cookieSecret: e.COOKIE_SECRET ?? persistentSecret(dataDir),
    imageHost: e.IMAGE_HOST,
    logLevel: e.LOG_LEVEL,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ""),
    trustProxy: e.TRUST_PROXY === "true",
    development: e.NODE_ENV === "development",
    patternLibrary: e.PATTERN_LIBRARY ? e.PATTERN_LIBRARY === "true" : e.NODE_ENV === "development",
    dataDir,
    cataloguePath: resolve(projectRoot, e.CATALOGUE_PATH ?? "content/catalogue.json"),
  };
}
