// `npm test`: every check the shop has, in the order that fails fastest, then one closing tally.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const reports = mkdtempSync(join(tmpdir(), "shop-test-reports-"));
const npx = process.platform === "win32" ? "npx.cmd" : "npx";
let passed = 0;
let failed = 0;

function run(title, command, args, env = {}) {
  console.log(`\n=== ${title} ===`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function finish(ok) {
  console.log(`\ntotal: ${passed} passed, ${failed} failed`);
  process.exit(ok ? 0 : 1);
}

if (!run("type check", npx, ["tsc", "--noEmit"])) finish(false);
if (!run("lint", npx, ["biome", "check", "."])) finish(false);

const vitestReport = join(reports, "vitest.json");
const unitOk = run("unit, server and island tests (vitest)", npx, [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestReport}`,
]);
const vitest = readJson(vitestReport);
passed += vitest?.numPassedTests ?? 0;
failed += vitest?.numFailedTests ?? (unitOk ? 0 : 1);
if (!unitOk) finish(false);

// After vitest: its global setup has built static/build, which the rendered pages link.
const templatesReport = join(reports, "templates.json");
const templatesOk = run("templates (npm run check:templates)", process.execPath, [
  "--import",
  "tsx",
  "scripts/check-templates.ts",
  "--report",
  templatesReport,
]);
const templates = readJson(templatesReport);
// One check when clean; each problem it prints counts as a failure.
if (templatesOk) passed += 1;
else failed += Math.max(1, templates?.problems ?? 0);
if (!templatesOk) finish(false);

if (!run("browser (chromium)", process.execPath, ["scripts/ensure-chromium.mjs"])) finish(false);
const playwrightReport = join(reports, "playwright.json");
const e2eOk = run("journeys (playwright)", npx, ["playwright", "test", "--reporter=list,json"], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
});
const stats = readJson(playwrightReport)?.stats;
passed += stats?.expected ?? 0;
failed += (stats?.unexpected ?? (e2eOk ? 0 : 1)) + (stats?.flaky ?? 0);
finish(e2eOk);
