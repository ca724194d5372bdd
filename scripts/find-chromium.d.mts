/** An executable Chromium: CHROMIUM_PATH, /usr/bin/chromium(-browser), or Playwright's own; else undefined. */
export function findChromium(): string | undefined;
/** Chromium's headless shell for the journeys, else what findChromium finds (CHROMIUM_PATH first). */
export function findHeadlessChromium(): string | undefined;
