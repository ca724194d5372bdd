// Makes sure the browser tests have a Chromium: silent when there is one, installs one
// where that is safe (root with apt-get, or a developer machine), else says what to do.
import { spawnSync } from "node:child_process";
import { findChromium, findHeadlessChromium } from "./find-chromium.mjs";

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit" });
  return result.status === 0;
}

function hasCommand(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function done(path) {
  const journeys = findHeadlessChromium();
  console.log(journeys === path ? `chromium: ${path}` : `chromium: ${path}, journeys in ${journeys}`);
  process.exit(0);
}

const explicit = process.env.CHROMIUM_PATH?.trim();
let found = findChromium();
if (found) done(found);
if (explicit) {
  console.error(`CHROMIUM_PATH=${explicit} is not an executable file; point it at a Chromium or unset it.`);
  process.exit(1);
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
if (isRoot && hasCommand("apt-get")) {
  console.log("chromium: not found; installing the Debian packages with apt-get");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = (args) => spawnSync("apt-get", args, { stdio: "inherit", env }).status === 0;
  if (
    apt(["update"]) &&
    apt(["install", "-y", "--no-install-recommends", "chromium", "chromium-headless-shell"])
  )
    found = findChromium();
  if (found) done(found);
}

if (!found && !process.env.CI) {
  console.log("chromium: not found; trying `npx playwright install chromium`");
  if (run("npx", ["--no-install", "playwright", "install", "chromium"])) found = findChromium();
  if (found) done(found);
}

console.error(
  "No Chromium for the browser tests: install one (sudo apt-get install chromium) or set CHROMIUM_PATH to its executable.",
);
process.exit(1);
