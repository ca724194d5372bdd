import { describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import type { RelativeTimeTexts } from "../../../server/domain/relative-time.ts";
import { largestUnit, nextChangeInMs, relativeTimeText } from "../../../server/domain/relative-time.ts";
import { loadMessages } from "../../../server/i18n/index.ts";

const messages = loadMessages(paths.locales);
const nl = messages.nl.relativeTime as unknown as RelativeTimeTexts;
const de = messages.de.relativeTime as unknown as RelativeTimeTexts;

const now = new Date("2026-11-21T12:00:00Z");
const minutes = (n: number) => new Date(now.getTime() - n * 60_000);
const ahead = (ms: number) => new Date(now.getTime() + ms);

describe("relative times in the past", () => {
  it("reads as minutes, hours, days, months and years ago in Dutch", () => {
    expect(relativeTimeText(minutes(0.5), now, "ago", nl, "nl")).toBe("zojuist");
    expect(relativeTimeText(minutes(1), now, "ago", nl, "nl")).toBe("1 minuut geleden");
    expect(relativeTimeText(minutes(5), now, "ago", nl, "nl")).toBe("5 minuten geleden");
    expect(relativeTimeText(minutes(60), now, "ago", nl, "nl")).toBe("1 uur geleden");
    expect(relativeTimeText(minutes(23 * 60 + 59), now, "ago", nl, "nl")).toBe("23 uur geleden");
    expect(relativeTimeText(minutes(24 * 60), now, "ago", nl, "nl")).toBe("1 dag geleden");
    expect(relativeTimeText(new Date("2026-10-22T12:00:00Z"), now, "ago", nl, "nl")).toBe("30 dagen geleden");
    expect(relativeTimeText(new Date("2026-10-21T12:00:00Z"), now, "ago", nl, "nl")).toBe("1 maand geleden");
    expect(relativeTimeText(new Date("2025-11-21T12:00:00Z"), now, "ago", nl, "nl")).toBe("1 jaar geleden");
    expect(relativeTimeText(new Date("2023-01-01T00:00:00Z"), now, "ago", nl, "nl")).toBe("3 jaar geleden");
  });

  it("reads the German way", () => {
    expect(relativeTimeText(minutes(5), now, "ago", de, "de")).toBe("vor 5 Minuten");
    expect(relativeTimeText(minutes(60), now, "ago", de, "de")).toBe("vor 1 Stunde");
    expect(relativeTimeText(minutes(3 * 24 * 60), now, "ago", de, "de")).toBe("vor 3 Tagen");
    expect(relativeTimeText(new Date("2026-08-01T00:00:00Z"), now, "ago", de, "de")).toBe("vor 3 Monaten");
    expect(relativeTimeText(new Date("2024-06-01T00:00:00Z"), now, "ago", de, "de")).toBe("vor 2 Jahren");
  });
});

describe("remaining validity", () => {
  it("reads as 'Nog … geldig' and 'Noch … gültig'", () => {
    expect(relativeTimeText(ahead(3 * 86_400_000 + 1000), now, "remaining", nl, "nl")).toBe(
      "Nog 3 dagen geldig",
    );
    expect(relativeTimeText(ahead(86_400_000), now, "remaining", nl, "nl")).toBe("Nog 1 dag geldig");
    expect(relativeTimeText(ahead(5 * 3_600_000), now, "remaining", de, "de")).toBe("Noch 5 Stunden gültig");
    expect(relativeTimeText(ahead(3 * 86_400_000 + 1000), now, "remaining", de, "de")).toBe(
      "Noch 3 Tage gültig",
    );
  });

  it("never says 0 minutes, and says when it has run out", () => {
    expect(relativeTimeText(ahead(20_000), now, "remaining", nl, "nl")).toBe("Nog 1 minuut geldig");
    expect(relativeTimeText(now, now, "remaining", nl, "nl")).toBe("Verlopen");
    expect(relativeTimeText(ahead(-1), now, "remaining", de, "de")).toBe("Abgelaufen");
  });
});

describe("largestUnit", () => {
  it("counts calendar months only once their day is reached", () => {
    expect(largestUnit(new Date("2026-01-31T00:00:00Z"), new Date("2026-02-28T00:00:00Z"))).toEqual({
      unit: "days",
      count: 28,
    });
    expect(largestUnit(new Date("2026-01-15T00:00:00Z"), new Date("2026-03-15T00:00:00Z"))).toEqual({
      unit: "months",
      count: 2,
    });
  });
});

describe("nextChangeInMs", () => {
  it("wakes up just after the next minute within the first hour", () => {
    expect(nextChangeInMs(minutes(5), now)).toBe(60_050);
    expect(nextChangeInMs(new Date(now.getTime() - 90_000), now)).toBe(30_050);
  });

  it("never waits longer than an hour", () => {
    expect(nextChangeInMs(minutes(3 * 24 * 60), now)).toBeLessThanOrEqual(3_600_000);
  });
});
