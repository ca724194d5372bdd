import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { findChromium } from "./scripts/find-chromium.mjs";
import type { ShopOptions } from "./tests/e2e/fixtures.ts";

const ci = Boolean(process.env.CI);

/** Asks the OS for a free port. A child process, because the config has to be read synchronously. */
function freePort(): string {
  const script =
    "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim();
}

// The runner reads this file first; its workers read it again and inherit these variables,
// so everyone agrees on one port and one data folder.
process.env.E2E_PORT ??= freePort();
if (!process.env.E2E_DATA_DIR) {
  const dataDir = mkdtempSync(join(tmpdir(), "photo-shop-e2e-"));
  process.env.E2E_DATA_DIR = dataDir;
  // Only the process that made the folder removes it, after the web server has been stopped.
  process.on("exit", () => rmSync(dataDir, { recursive: true, force: true }));
}
const port = process.env.E2E_PORT;
const baseURL = `http://127.0.0.1:${port}`;

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const widths = [375, 600, 1280] as const;
const scriptModes = ["on", "off"] as const;

export default defineConfig<ShopOptions>({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: ci,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: ci ? [["list"]] : "list",
  use: {
    baseURL,
    launchOptions: { executablePath: findChromium(), args: chromiumArgs },
    trace: "off",
  },
  projects: scriptModes.flatMap((scripts) =>
    widths.map((width) => ({
      name: `js-${scripts}-${width}`,
      use: { scripts, viewport: { width, height: 800 } },
      // "@js-only" journeys need the enhanced layer; "@no-js-only" ones a browser without it.
      grepInvert: scripts === "on" ? /@no-js-only/ : /@js-only/,
    })),
  ),
  webServer: {
    command: "node scripts/build.mjs && node --import tsx server/main.ts",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    env: {
      NODE_ENV: "production",
      PORT: port,
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_DATA_DIR,
      COOKIE_SECRET: "e2e-cookie-secret-that-is-long-enough-0123456789",
      LOG_LEVEL: "warn",
      // The pattern library shows every behaviour live; the behaviour journeys use it.
      PATTERN_LIBRARY: "true",
    },
  },
});
