import { describe, expect, it } from "vitest";
import { loadCompany, parseCompany } from "../../server/domain/company.ts";

describe("the company's details", () => {
  it("are read whole from content/company.json", () => {
    const company = loadCompany();
    expect(company.name).toBe("Fotohoek B.V.");
    expect(company.address.country.de).toBe("Niederlande");
  });

  it("refuse a file without a VAT id, naming the field", () => {
    const { vatId: _omitted, ...rest } = loadCompany();
    expect(() => parseCompany(rest)).toThrow(/content\/company\.json: vatId/);
  });
});
