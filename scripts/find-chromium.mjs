// Finds a Chromium for the browser tests, without downloading anything.
// Order: CHROMIUM_PATH, Debian/Ubuntu packages, then a browser Playwright itself installed.
// The journeys prefer the headless shell (findHeadlessChromium); the back/forward-cache
// and prerender journeys and bench:navigation keep the full browser (findChromium).
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

const systemPaths = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
/** Debian's chromium-headless-shell: the same Chromium build without the browser's window layer. */
const headlessShellPaths = ["/usr/bin/chromium-headless-shell"];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where Playwright would keep its own Chromium, if that package is installed at all. */
function playwrightChromium() {
  for (const name of ["playwright-core", "@playwright/test"]) {
    try {
      const path = require(name).chromium.executablePath();
      if (typeof path === "string" && path) return path;
    } catch {
      // Package missing, or no build for this platform: try the next one.
    }
  }
  return undefined;
}

/** @returns {string | undefined} an executable Chromium, or undefined when there is none. */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH?.trim();
  if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined;
  for (const path of systemPaths) if (isExecutable(path)) return path;
  const own = playwrightChromium();
  return own && isExecutable(own) ? own : undefined;
}

/**
 * For the journeys: Chromium's headless shell, which Playwright itself runs headless tests in
 * and which spends less CPU per page than the full browser (docs/adr/0109); the full browser
 * when the shell is not installed. CHROMIUM_PATH still decides when it is set.
 * @returns {string | undefined}
 */
export function findHeadlessChromium() {
  if (process.env.CHROMIUM_PATH?.trim()) return findChromium();
  for (const path of headlessShellPaths) if (isExecutable(path)) return path;
  return findChromium();
}
