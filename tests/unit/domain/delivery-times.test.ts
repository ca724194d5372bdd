import { describe, expect, it } from "vitest";
import {
  estimate,
  formatCutOff,
  instantAt,
  localMoment,
  nextChange,
  parseCutOff,
} from "../../../server/domain/delivery-times.ts";

const settings = { cutOff: parseCutOff("15:00") };
const exclusiveStandard = { min: 3, max: 5 };
const exclusiveRush = { min: 2, max: 4 };
const prints = { min: 1, max: 2 };
const oneDay = { min: 1, max: 1 };

/** A moment on the shop's clock (Amsterdam), in summer or winter time as the date has it. */
const at = (date: string, time: string) => {
  const [h = 0, m = 0, s = 0] = time.split(":").map(Number);
  return new Date(instantAt(date, h * 60 + m).getTime() + s * 1000);
};

describe("the shop's clock", () => {
  it("reads Amsterdam time in summer and in winter", () => {
    expect(localMoment(new Date("2026-04-20T13:00:00Z"))).toEqual({
      date: "2026-04-20",
      minutes: 900,
      seconds: 0,
    });
    expect(localMoment(new Date("2026-01-12T14:00:00Z"))).toEqual({
      date: "2026-01-12",
      minutes: 900,
      seconds: 0,
    });
    expect(localMoment(new Date("2026-04-19T22:30:00Z")).date).toBe("2026-04-20");
  });

  it("finds the instant of a wall-clock time, across the change to and from summer time", () => {
    expect(instantAt("2026-04-20", 15 * 60).toISOString()).toBe("2026-04-20T13:00:00.000Z");
    expect(instantAt("2026-01-12", 15 * 60).toISOString()).toBe("2026-01-12T14:00:00.000Z");
    expect(instantAt("2026-03-29", 0).toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(instantAt("2026-03-29", 15 * 60).toISOString()).toBe("2026-03-29T13:00:00.000Z");
    expect(instantAt("2026-10-25", 0).toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(instantAt("2026-10-25", 15 * 60).toISOString()).toBe("2026-10-25T14:00:00.000Z");
  });

  it("refuses a time that is not a valid date instead of guessing", () => {
    expect(() => estimate(new Date(Number.NaN), oneDay, "NL", settings)).toThrow(RangeError);
  });
});

describe("the cut-off time", () => {
  it("is read from configuration as HH:MM", () => {
    expect(parseCutOff("15:00")).toEqual({ hour: 15, minute: 0 });
    expect(parseCutOff(" 09:30 ")).toEqual({ hour: 9, minute: 30 });
    expect(formatCutOff({ hour: 9, minute: 5 })).toBe("09:05");
    for (const bad of ["15", "24:00", "9:30", "15:60", "drie uur"])
      expect(() => parseCutOff(bad), bad).toThrow();
  });

  it("counts an order one second before it for today", () => {
    const e = estimate(at("2026-04-20", "14:59:59"), oneDay, "NL", settings);
    expect(e.orderBefore).toBe("2026-04-20");
    expect(e.sent).toEqual({ from: "2026-04-20", to: "2026-04-20" });
  });

  it("counts an order at exactly the cut-off minute for the next working day", () => {
    const e = estimate(at("2026-04-20", "15:00:00"), oneDay, "NL", settings);
    expect(e.today).toBe("2026-04-20");
    expect(e.orderBefore).toBe("2026-04-21");
    expect(e.sent).toEqual({ from: "2026-04-21", to: "2026-04-21" });
  });

  it("is configurable: with 17:30, 17:29 still counts for today", () => {
    const late = { cutOff: parseCutOff("17:30") };
    expect(estimate(at("2026-04-20", "17:29:30"), oneDay, "NL", late).orderBefore).toBe("2026-04-20");
    expect(estimate(at("2026-04-20", "17:30:00"), oneDay, "NL", late).orderBefore).toBe("2026-04-21");
  });
});

describe("when an exclusive photo book ordered now is sent and delivered", () => {
  it("standard production: 3 to 5 working days, the order day counting as the first", () => {
    const e = estimate(at("2026-04-14", "10:00"), exclusiveStandard, "NL", settings);
    expect(e.sent).toEqual({ from: "2026-04-16", to: "2026-04-20" }); // Thu to Mon, over the weekend
    expect(e.delivered).toEqual({ from: "2026-04-17", to: "2026-04-21" });
  });

  it("rush production: 2 to 4 working days", () => {
    const e = estimate(at("2026-04-14", "10:00"), exclusiveRush, "NL", settings);
    expect(e.sent).toEqual({ from: "2026-04-15", to: "2026-04-17" });
  });

  it("takes one to two days longer to reach Germany", () => {
    const e = estimate(at("2026-04-14", "10:00"), exclusiveStandard, "DE", settings);
    expect(e.sent).toEqual({ from: "2026-04-16", to: "2026-04-20" });
    expect(e.delivered).toEqual({ from: "2026-04-17", to: "2026-04-22" });
  });
});

describe("orders around weekends and public holidays", () => {
  it("after the cut-off on Friday, production starts on Monday", () => {
    const e = estimate(at("2026-04-17", "16:00"), oneDay, "NL", settings);
    expect(e.orderBefore).toBe("2026-04-20");
    expect(e.sent.from).toBe("2026-04-20");
  });

  it("on a Saturday, production starts on Monday", () => {
    expect(estimate(at("2026-04-18", "09:00"), oneDay, "DE", settings).orderBefore).toBe("2026-04-20");
  });

  it("King's Day: in the Netherlands production waits until Tuesday, in Germany it does not", () => {
    expect(estimate(at("2026-04-24", "16:00"), oneDay, "NL", settings).orderBefore).toBe("2026-04-28");
    expect(estimate(at("2026-04-24", "16:00"), oneDay, "DE", settings).orderBefore).toBe("2026-04-27");
    // A book sent on the Friday before is delivered on the Tuesday after in the Netherlands.
    const book = estimate(at("2026-04-22", "10:00"), exclusiveStandard, "NL", settings);
    expect(book.sent).toEqual({ from: "2026-04-24", to: "2026-04-29" });
    expect(book.delivered.from).toBe("2026-04-28");
  });

  it("Easter: Good Friday is a working day in the Netherlands, not in Germany; Easter Monday in neither", () => {
    const nl = estimate(at("2026-04-02", "16:00"), prints, "NL", settings);
    expect(nl.orderBefore).toBe("2026-04-03");
    expect(nl.sent).toEqual({ from: "2026-04-03", to: "2026-04-07" });
    const de = estimate(at("2026-04-02", "16:00"), prints, "DE", settings);
    expect(de.orderBefore).toBe("2026-04-07");
    expect(de.sent).toEqual({ from: "2026-04-07", to: "2026-04-08" });
  });

  it("Ascension Day: an order on Wednesday evening starts on Friday", () => {
    for (const country of ["NL", "DE"] as const) {
      expect(estimate(at("2026-05-13", "16:00"), oneDay, country, settings).orderBefore, country).toBe(
        "2026-05-15",
      );
    }
  });

  it("Whit Monday: an order on Friday evening starts on Tuesday", () => {
    for (const country of ["NL", "DE"] as const) {
      const e = estimate(at("2026-05-22", "16:00"), oneDay, country, settings);
      expect(e.orderBefore, country).toBe("2026-05-26");
    }
  });

  it("German Unity Day: delivery in Germany skips it", () => {
    const de = estimate(at("2025-10-02", "10:00"), oneDay, "DE", settings);
    expect(de.sent).toEqual({ from: "2025-10-02", to: "2025-10-02" });
    expect(de.delivered).toEqual({ from: "2025-10-06", to: "2025-10-07" });
    const nl = estimate(at("2025-10-02", "10:00"), oneDay, "NL", settings);
    expect(nl.delivered).toEqual({ from: "2025-10-03", to: "2025-10-03" });
  });

  it("the year end: Christmas and New Year's Day are skipped", () => {
    expect(estimate(at("2026-12-24", "16:00"), oneDay, "NL", settings).orderBefore).toBe("2026-12-28");
    const newYear = estimate(at("2026-12-31", "16:00"), exclusiveStandard, "NL", settings);
    expect(newYear.orderBefore).toBe("2027-01-04");
    expect(newYear.sent).toEqual({ from: "2027-01-06", to: "2027-01-08" });
    const december = estimate(at("2026-12-22", "10:00"), exclusiveStandard, "DE", settings);
    expect(december.sent).toEqual({ from: "2026-12-24", to: "2026-12-29" });
    expect(december.delivered).toEqual({ from: "2026-12-28", to: "2026-12-31" });
  });
});

describe("when an estimate next changes", () => {
  it("is today's cut-off while it is ahead", () => {
    expect(nextChange(at("2026-04-20", "10:00"), settings).toISOString()).toBe("2026-04-20T13:00:00.000Z");
    expect(nextChange(at("2026-04-20", "14:59:59"), settings).toISOString()).toBe("2026-04-20T13:00:00.000Z");
  });

  it("is the coming midnight once the cut-off has passed", () => {
    expect(nextChange(at("2026-04-20", "15:00"), settings).toISOString()).toBe("2026-04-20T22:00:00.000Z");
    expect(nextChange(at("2026-12-31", "23:59"), settings).toISOString()).toBe("2026-12-31T23:00:00.000Z");
  });

  it("keeps to the wall clock on the nights summer time starts and ends", () => {
    expect(nextChange(at("2026-03-28", "20:00"), settings).toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(nextChange(at("2026-10-24", "20:00"), settings).toISOString()).toBe("2026-10-24T22:00:00.000Z");
  });
});
