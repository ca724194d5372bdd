import { describe, expect, it } from "vitest";
import { contractFormErrors, contractRequestOf, dayTyped } from "../../../server/forms/contract-forms.ts";

const t = (key: string) => key;
const today = "2026-12-02";
const ordinary = {
  name: "Anna de Vries",
  email: "anna@example.nl",
  contract: "address",
  subscriptionNumber: "",
  notice: "ordinary",
  reason: "",
  endOn: "",
};
const fields = async (values: Record<string, string>, kind: "cancel" | "withdraw" = "cancel") =>
  (await contractFormErrors(kind, values, t, "nl", today)).map((e) => `${e.field}: ${e.message}`);

describe("the cancellation and withdrawal forms", () => {
  it("accept an ordinary notice for the address's subscription, without number, reason or day", async () => {
    expect(await fields(ordinary)).toEqual([]);
    expect(await fields({ name: "Anna", email: "anna@example.nl", contract: "address" }, "withdraw")).toEqual(
      [],
    );
  });

  it("ask for the number only when the contract is named by it", async () => {
    expect(await fields({ ...ordinary, contract: "number" })).toEqual([
      "subscriptionNumber: contractForms.validation.numberNeeded",
    ]);
    expect(await fields({ ...ordinary, contract: "number", subscriptionNumber: "a b" })).toEqual([
      "subscriptionNumber: contractForms.validation.subscriptionNumber",
    ]);
  });

  it("ask an extraordinary notice for its reason and a day from today on", async () => {
    const extraordinary = { ...ordinary, notice: "extraordinary" };
    expect(await fields(extraordinary)).toEqual([
      "reason: contractForms.validation.reasonNeeded",
      "endOn: contractForms.validation.endOnNeeded",
    ]);
    expect(await fields({ ...extraordinary, reason: "Verhuizing", endOn: "2026-12-01" })).toEqual([
      "endOn: contractForms.validation.endOnPast",
    ]);
    expect(await fields({ ...extraordinary, reason: "Verhuizing", endOn: "31-02-2027" })).toEqual([
      "endOn: contractForms.validation.endOnDate",
    ]);
    expect(await fields({ ...extraordinary, reason: "Verhuizing", endOn: "02.12.2026" })).toEqual([]);
    expect(await fields({ ...extraordinary, reason: "x".repeat(501), endOn: today })).toEqual([
      "reason: validation.maxlength",
    ]);
  });

  it("refuse a choice that is not on the form", async () => {
    expect(await fields({ ...ordinary, notice: "immediately", contract: "all" })).toEqual([
      "contract: validation.choice",
      "notice: validation.choice",
    ]);
  });

  it("read a day as <input type=date> sends it, or as typed with dots, dashes or slashes", () => {
    expect(dayTyped("2026-12-31")).toBe("2026-12-31");
    expect(dayTyped(" 1-2-2027 ")).toBe("2027-02-01");
    expect(dayTyped("29.02.2028")).toBe("2028-02-29");
    expect(dayTyped("29/02/2027")).toBeUndefined();
    expect(dayTyped("morgen")).toBeUndefined();
  });

  it("make the request of what was typed: trimmed, and only the fields its choices use", () => {
    expect(
      contractRequestOf(
        "cancel",
        {
          ...ordinary,
          name: " Anna ",
          subscriptionNumber: "ignored",
          reason: "ignored",
          endOn: "2026-12-31",
        },
        "nl",
      ),
    ).toEqual({
      kind: "cancel",
      locale: "nl",
      name: "Anna",
      email: "anna@example.nl",
      contractRef: undefined,
      notice: "ordinary",
      reason: undefined,
      askedEndOn: undefined,
    });
    expect(
      contractRequestOf(
        "cancel",
        {
          ...ordinary,
          contract: "number",
          subscriptionNumber: " abc ",
          notice: "extraordinary",
          reason: "Verhuizing ",
          endOn: "31-12-2026",
        },
        "de",
      ),
    ).toMatchObject({ contractRef: "abc", reason: "Verhuizing", askedEndOn: "2026-12-31", locale: "de" });
    expect(contractRequestOf("withdraw", ordinary, "nl")).toMatchObject({
      notice: undefined,
      reason: undefined,
    });
  });
});
