import { describe, expect, it } from "vitest";
import { localeFromAcceptLanguage } from "../../../server/i18n/locales.ts";

describe("localeFromAcceptLanguage", () => {
  it("picks the highest-ranked language we serve", () => {
    expect(localeFromAcceptLanguage("de-DE,de;q=0.9,en;q=0.8")).toBe("de");
    expect(localeFromAcceptLanguage("en-GB,en;q=0.9,nl;q=0.5,de;q=0.4")).toBe("nl");
    expect(localeFromAcceptLanguage("fr;q=0.9, de-AT;q=0.95")).toBe("de");
  });

  it("gives nothing for languages we do not serve, or nonsense", () => {
    expect(localeFromAcceptLanguage("fr-FR,en")).toBeUndefined();
    expect(localeFromAcceptLanguage(";;;q=,,")).toBeUndefined();
    expect(localeFromAcceptLanguage("de;q=0")).toBeUndefined();
    expect(localeFromAcceptLanguage(undefined)).toBeUndefined();
  });
});
