import { countryOfLocale, type DeliveryAddress } from "../domain/delivery-address.ts";
import { type DeliveryCountry, normalizePostcode } from "../domain/postcode.ts";
import type { Locale } from "../i18n/locales.ts";
import { countryField, emailField, nameField, postcodeField } from "./fields.ts";
import { defineForm, type FormValues } from "./form.ts";

/**
 * The checkout's delivery address. The postcode is checked for the chosen country by the
 * same remote check as everywhere (server/routes/remote-checks.ts), in the browser while
 * typing and on the server when the form comes in.
 */
export const addressForm = defineForm({
  id: "address",
  fields: [
    nameField,
    {
      name: "street",
      label: "address.street",
      // One line of street and number: street-address is for a multi-line field (a textarea).
      autocomplete: "address-line1",
      rules: [
        { rule: "required" },
        { rule: "maxlength", params: { max: 100 } },
        // A parcel without a house number comes back; every Dutch and German address has one.
        { rule: "regex", params: { pattern: "[^\\d]*\\d[\\s\\S]*" }, message: "address.streetNumber" },
      ],
    },
    postcodeField,
    {
      name: "city",
      label: "address.city",
      autocomplete: "address-level2",
      rules: [{ rule: "required" }, { rule: "maxlength", params: { max: 60 } }],
    },
    countryField,
    emailField,
    {
      name: "phone",
      type: "tel",
      label: "address.phone",
      hint: "address.phoneHint",
      autocomplete: "tel",
      rules: [{ rule: "regex", params: { pattern: "\\+?[0-9 ()-]{6,20}" }, message: "address.phoneInvalid" }],
    },
  ],
});

/** The form as a shopper first sees it: their saved address, or just the country of their language. */
export function addressValues(address: DeliveryAddress | undefined, locale: Locale): FormValues {
  if (!address) return { country: countryOfLocale[locale] };
  return { ...address, phone: address.phone ?? "" };
}

/** A validated form as the address to save: trimmed, postcode as the post office writes it. */
export function toDeliveryAddress(values: FormValues): DeliveryAddress {
  const country = values.country as DeliveryCountry;
  const trim = (name: string) => (values[name] ?? "").trim().replace(/\s+/g, " ");
  const phone = trim("phone");
  return {
    name: trim("name"),
    street: trim("street"),
    postcode: normalizePostcode(country, values.postcode ?? "") ?? trim("postcode"),
    city: trim("city"),
    country,
    email: trim("email"),
    ...(phone ? { phone } : {}),
  };
}
