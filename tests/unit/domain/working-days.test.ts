import { describe, expect, it } from "vitest";
import {
  addDays,
  addWorkingDays,
  isPublicHoliday,
  isWorkingDay,
  weekday,
  workingDayFrom,
} from "../../../server/domain/working-days.ts";

describe("calendar days", () => {
  it("count across month and year ends and leap days", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2027-02-28", 1)).toBe("2027-03-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("know their weekday without a time zone shifting them", () => {
    expect(weekday("2026-04-27")).toBe(1); // a Monday
    expect(weekday("2026-10-25")).toBe(0); // the Sunday summer time ends
  });

  it("refuse text that is not a date", () => {
    expect(() => addDays("27-04-2026", 1)).toThrow(RangeError);
  });
});

describe("working days in the Netherlands", () => {
  it("are Monday to Friday", () => {
    expect(isWorkingDay("2026-04-24", "NL")).toBe(true); // Friday
    expect(isWorkingDay("2026-04-25", "NL")).toBe(false); // Saturday
    expect(isWorkingDay("2026-04-26", "NL")).toBe(false); // Sunday
  });

  it("skip Easter Monday, King's Day, Ascension Day and Whit Monday", () => {
    for (const day of ["2026-04-06", "2026-04-27", "2026-05-14", "2026-05-25"]) {
      expect(isPublicHoliday(day, "NL"), day).toBe(true);
      expect(isWorkingDay(day, "NL"), day).toBe(false);
    }
  });

  it("keep Good Friday and Liberation Day as working days (not public holidays there)", () => {
    expect(isWorkingDay("2026-04-03", "NL")).toBe(true);
    expect(isWorkingDay("2025-05-05", "NL")).toBe(true);
  });

  it("move King's Day to Saturday when 27 April is a Sunday", () => {
    expect(isPublicHoliday("2025-04-26", "NL")).toBe(true);
    expect(isPublicHoliday("2025-04-28", "NL")).toBe(false);
  });

  it("skip Christmas and New Year's Day over the year end", () => {
    expect(isWorkingDay("2026-12-24", "NL")).toBe(true);
    expect(isWorkingDay("2026-12-25", "NL")).toBe(false);
    expect(isWorkingDay("2026-12-31", "NL")).toBe(true);
    expect(isWorkingDay("2027-01-01", "NL")).toBe(false);
  });
});

describe("working days in Germany", () => {
  it("skip Good Friday, Easter Monday, Labour Day, Ascension Day and Whit Monday", () => {
    for (const day of ["2026-04-03", "2026-04-06", "2026-05-01", "2026-05-14", "2026-05-25"]) {
      expect(isWorkingDay(day, "DE"), day).toBe(false);
    }
  });

  it("skip German Unity Day and not King's Day", () => {
    expect(isWorkingDay("2025-10-03", "DE")).toBe(false);
    expect(isWorkingDay("2025-10-03", "NL")).toBe(true);
    expect(isWorkingDay("2026-04-27", "DE")).toBe(true);
  });

  it("do not count regional or observed days such as Christmas Eve or Reformation Day", () => {
    expect(isWorkingDay("2026-12-24", "DE")).toBe(true);
    expect(isWorkingDay("2025-10-31", "DE")).toBe(true);
  });
});

describe("counting working days", () => {
  it("starts on the day itself when it is a working day", () => {
    expect(workingDayFrom("2026-04-24", "NL")).toBe("2026-04-24");
    expect(addWorkingDays("2026-04-24", 0, "NL")).toBe("2026-04-24");
  });

  it("jumps over a weekend", () => {
    expect(addWorkingDays("2026-04-24", 1, "NL")).toBe("2026-04-28"); // Fri → Tue: King's Day Monday
    expect(addWorkingDays("2026-04-24", 1, "DE")).toBe("2026-04-27"); // Fri → Mon in Germany
  });

  it("jumps over the Easter weekend, four days long in Germany", () => {
    expect(addWorkingDays("2026-04-02", 1, "NL")).toBe("2026-04-03"); // Good Friday works in NL
    expect(addWorkingDays("2026-04-02", 1, "DE")).toBe("2026-04-07");
  });

  it("jumps over Ascension Day and Whit Monday", () => {
    expect(addWorkingDays("2026-05-13", 1, "NL")).toBe("2026-05-15");
    expect(addWorkingDays("2026-05-22", 1, "DE")).toBe("2026-05-26");
  });

  it("carries over the year end", () => {
    expect(addWorkingDays("2026-12-24", 1, "NL")).toBe("2026-12-28");
    expect(addWorkingDays("2026-12-31", 1, "NL")).toBe("2027-01-04");
    expect(addWorkingDays("2026-12-31", 1, "DE")).toBe("2027-01-04");
    expect(addWorkingDays("2026-12-23", 5, "DE")).toBe("2026-12-31");
    expect(addWorkingDays("2026-12-23", 6, "DE")).toBe("2027-01-04");
  });

  it("refuses a negative count", () => {
    expect(() => addWorkingDays("2026-04-24", -1, "NL")).toThrow(RangeError);
  });
});
