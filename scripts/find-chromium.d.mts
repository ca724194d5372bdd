/** An executable Chromium: CHROMIUM_PATH, /usr/bin/chromium(-browser), or Playwright's own; else undefined. */
export function findChromium(): string | undefined;
