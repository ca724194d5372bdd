import { describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import {
  capitalize,
  type DayTexts,
  dayPhrase,
  dayText,
  windowText,
} from "../../../server/domain/delivery-texts.ts";
import { loadMessages } from "../../../server/i18n/index.ts";

const messages = loadMessages(paths.locales);
const texts = (locale: "nl" | "de") =>
  (messages[locale].deliveryTimes as { days: unknown }).days as unknown as DayTexts;
const nl = texts("nl");
const de = texts("de");
const today = "2026-04-20"; // a Monday

describe("a day in words", () => {
  it("says today and tomorrow", () => {
    expect(dayText("2026-04-20", today, "nl", nl)).toBe("vandaag");
    expect(dayText("2026-04-21", today, "nl", nl)).toBe("morgen");
    expect(dayText("2026-04-20", today, "de", de)).toBe("heute");
    expect(dayText("2026-04-21", today, "de", de)).toBe("morgen");
  });

  it("names later days by weekday and date, with the locale's own names", () => {
    expect(dayText("2026-04-22", today, "nl", nl)).toBe("woensdag 22 april");
    expect(dayText("2026-04-22", today, "de", de)).toBe("Mittwoch, 22. April");
    expect(dayText("2027-01-04", "2026-12-31", "nl", nl)).toBe("maandag 4 januari");
    expect(dayText("2026-03-02", "2026-02-27", "de", de)).toBe("Montag, 2. März");
  });

  it("reads inside a sentence", () => {
    expect(dayPhrase("2026-04-20", today, "nl", nl)).toBe("vandaag");
    expect(dayPhrase("2026-04-27", today, "nl", nl)).toBe("op maandag 27 april");
    expect(dayPhrase("2026-04-27", today, "de", de)).toBe("am Montag, 27. April");
  });

  it("starts a table cell with a capital", () => {
    expect(capitalize("woensdag 22 april", "nl")).toBe("Woensdag 22 april");
    expect(capitalize("übermorgen", "de")).toBe("Übermorgen");
  });
});

describe("a window of days in words", () => {
  it("is one day when it starts and ends on the same day", () => {
    expect(windowText({ from: today, to: today }, today, "nl", nl)).toBe("vandaag");
  });

  it("offers two days in a row as a choice", () => {
    expect(windowText({ from: "2026-04-20", to: "2026-04-21" }, today, "nl", nl)).toBe("vandaag of morgen");
    expect(windowText({ from: "2026-04-21", to: "2026-04-22" }, today, "de", de)).toBe(
      "morgen oder Mittwoch, 22. April",
    );
  });

  it("says between tomorrow and a later date", () => {
    expect(windowText({ from: "2026-04-21", to: "2026-04-24" }, today, "nl", nl)).toBe(
      "tussen morgen en vrijdag 24 april",
    );
    expect(windowText({ from: "2026-04-21", to: "2026-04-24" }, today, "de", de)).toBe(
      "zwischen morgen und Freitag, 24. April",
    );
  });

  it("writes two later dates as a range, across a month end too", () => {
    expect(windowText({ from: "2026-04-22", to: "2026-04-24" }, today, "nl", nl)).toBe(
      // Intl sets the dash between thin spaces.
      "woensdag 22\u2009–\u2009vrijdag 24 april",
    );
    expect(windowText({ from: "2026-04-29", to: "2026-05-04" }, today, "de", de)).toBe(
      "Mittwoch, 29. April\u2009–\u2009Montag, 4. Mai",
    );
  });
});
