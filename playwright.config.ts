import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";
import { findHeadlessChromium } from "./scripts/find-chromium.mjs";
import { tabletMaxWidth } from "./server/domain/breakpoints.ts";
import type { ShopOptions } from "./tests/e2e/fixtures.ts";
import { shopEnv } from "./tests/e2e/shop-env.ts";

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

/**
 * Chromium 156 renders its address bar's suggestion pop-ups as web pages of their own, and
 * prepares two of them, each in its own renderer process, for every window: every test's
 * browser context. Nothing here ever opens them. Turning them off took a spec's run from
 * 2.1 to 1.7 min on this 2-core machine (docs/performance.md). The headless shell the
 * journeys run in (ADR 0109) has no address bar; the flags matter where the full browser runs.
 */
const unusedBrowserFeatures = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

/**
 * Chromium reads only the last --disable-features, so ours repeats the features Playwright
 * turns off itself (its chromiumSwitches, Playwright 1.65); compare them on an upgrade.
 */
const playwrightDisabledFeatures = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
];

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  `--disable-features=${[...playwrightDisabledFeatures, ...unusedBrowserFeatures].join(",")}`,
];

const widths = [375, 600, 1280] as const;
const scriptModes = ["on", "off"] as const;
type Scripts = (typeof scriptModes)[number];
/** The tabs' breakpoint: at or below 725 px the subscription page's tabs are an accordion. */
const tabsBreakpoint = tabletMaxWidth;
type Width = (typeof widths)[number] | typeof tabsBreakpoint;

/**
 * Where axe runs (it is the slowest part of the run): the small screen with and without
 * JavaScript and the large screen with it. The middle widths and the large screen without
 * JavaScript show the same markup with only the layout between. Journeys that check axe
 * inline read this from the project's metadata (metadata.axe).
 */
const runsAxe = (scripts: Scripts, width: Width) =>
  width === widths[0] || (width === 1280 && scripts === "on");

/**
 * Which journeys a project leaves out, by the tags in their titles. Every page and journey
 * runs at every width with and without JavaScript, except:
 * - "@js-only" journeys need the enhanced layer; "@no-js-only" ones a browser without it;
 * - "@once" journeys do not depend on the screen's width (or set their own): they run once
 *   per JavaScript mode, on the small screen, where most can go wrong;
 * - "@axe" checks run only where runsAxe says.
 */
function skippedTags(scripts: Scripts, width: Width): RegExp {
  const skipped = [scripts === "on" ? "@no-js-only" : "@js-only"];
  if (width !== widths[0]) skipped.push("@once");
  if (!runsAxe(scripts, width)) skipped.push("@axe");
  return new RegExp(skipped.join("|"));
}

const project = (scripts: Scripts, width: Width) => ({
  name: `js-${scripts}-${width}`,
  use: { scripts, viewport: { width, height: 800 } },
  grepInvert: skippedTags(scripts, width),
  metadata: { axe: runsAxe(scripts, width) },
});

export default defineConfig<ShopOptions>({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: ci,
  retries: 0,
  // One per core: the browsers and the shop keep both busy, and more workers only wait longer.
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: ci ? [["list"]] : "list",
  use: {
    baseURL,
    launchOptions: { executablePath: findHeadlessChromium(), args: chromiumArgs },
    trace: "off",
  },
  projects: [
    ...scriptModes.flatMap((scripts) => widths.map((width) => project(scripts, width))),
    // Exactly at the tabs' breakpoint, only the journeys of the pages with tabs and the
    // widgets (the spec asks for 725 px there); every other page is laid out as at 600 px.
    ...scriptModes.map((scripts) => ({
      ...project(scripts, tabsBreakpoint),
      testMatch: /(widgets|editor-subscription)\.spec\.ts$/,
    })),
  ],
  webServer: {
    command: "node scripts/build.mjs && node --import tsx server/main.ts",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    env: shopEnv(baseURL),
  },
});
