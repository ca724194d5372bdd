import { describe, expect, it } from "vitest";
import { addressForm, addressValues, toDeliveryAddress } from "../../../server/forms/address-form.ts";
import { rules } from "../../../server/forms/rules.ts";

const t = (key: string) => key;
const good = {
  name: "Anna de Vries",
  street: "Dorpsstraat 12",
  postcode: "1234ab",
  city: "Utrecht",
  country: "NL",
  email: "anna@example.nl",
  phone: "",
};

describe("the address form", () => {
  it("accepts a complete address, the phone number being optional", async () => {
    expect(await addressForm.validate(good, t)).toEqual([]);
  });

  it("requires everything but the phone number", async () => {
    const errors = await addressForm.validate({}, t);
    expect(errors.map((e) => e.field)).toEqual(["name", "street", "postcode", "city", "country", "email"]);
  });

  it("wants a house number in the street, and a phone number that looks like one", async () => {
    const errors = await addressForm.validate({ ...good, street: "Dorpsstraat", phone: "call me" }, t);
    expect(errors).toEqual([
      { field: "street", message: "address.streetNumber" },
      { field: "phone", message: "address.phoneInvalid" },
    ]);
    for (const phone of ["06 12345678", "+31 (0)85 123 45 67", "030-1234567"]) {
      expect(await addressForm.validate({ ...good, phone }, t), phone).toEqual([]);
    }
  });

  it("writes the same street rule for the browser as the server checks", () => {
    const attrs = addressForm.attributes("street", t);
    const pattern = attrs["data-val-regex-pattern"] ?? "";
    expect(rules.regex.check("Hauptstraße 5a", { pattern }, { otherValue: () => undefined })).toBe(true);
    expect(rules.regex.check("Hauptstraße", { pattern }, { otherValue: () => undefined })).toBe(false);
  });

  it("saves the postcode as the post office writes it, and trims what was typed", () => {
    expect(toDeliveryAddress({ ...good, name: "  Anna   de Vries ", postcode: " 1234ab" })).toEqual({
      name: "Anna de Vries",
      street: "Dorpsstraat 12",
      postcode: "1234 AB",
      city: "Utrecht",
      country: "NL",
      email: "anna@example.nl",
    });
    expect(toDeliveryAddress({ ...good, country: "DE", postcode: "10115", phone: " 030 1234 " }).phone).toBe(
      "030 1234",
    );
  });

  it("starts with the country of the shop's language, or the saved address", () => {
    expect(addressValues(undefined, "nl")).toEqual({ country: "NL" });
    expect(addressValues(undefined, "de")).toEqual({ country: "DE" });
    const saved = toDeliveryAddress(good);
    expect(addressValues(saved, "de")).toEqual({ ...saved, phone: "" });
  });
});
