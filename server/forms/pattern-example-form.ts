import { deliveryCountries } from "../domain/postcode.ts";
import { defineForm } from "./form.ts";

/**
 * The pattern library's example form. Real forms (address, contact, sign-up) are
 * defined the same way, in a module of their own.
 */
export const patternExampleForm = defineForm({
  id: "example",
  fields: [
    {
      name: "name",
      label: "fields.name",
      autocomplete: "name",
      rules: [{ rule: "required" }, { rule: "maxlength", params: { max: 80 } }],
    },
    {
      name: "email",
      type: "email",
      label: "fields.email",
      hint: "fields.emailHint",
      autocomplete: "email",
      rules: [{ rule: "required" }, { rule: "email" }, { rule: "maxlength", params: { max: 254 } }],
    },
    {
      name: "country",
      control: "select",
      label: "fields.country",
      autocomplete: "country",
      options: deliveryCountries.map((c) => ({ value: c, label: `fields.countries.${c}` })),
      rules: [{ rule: "required" }],
    },
    {
      name: "postcode",
      label: "fields.postcode",
      autocomplete: "postal-code",
      rules: [
        { rule: "required" },
        { rule: "maxlength", params: { max: 10 } },
        { rule: "remote", params: { url: "route:postcodeCheck", additionalfields: "country" } },
      ],
    },
    {
      name: "password",
      type: "password",
      label: "fields.password",
      autocomplete: "new-password",
      rules: [{ rule: "required" }, { rule: "password", params: { min: 8, nonalphamin: 0 } }],
      // Exact mode: a passphrase that merely contains a common word ("zomer") stays allowed.
      strength: { minimumLength: 8, banMode: "exact", message: "validation.passwordWeak" },
    },
    {
      name: "passwordConfirm",
      type: "password",
      label: "fields.passwordConfirm",
      autocomplete: "new-password",
      rules: [{ rule: "required" }, { rule: "equalto", params: { other: "password" } }],
    },
  ],
});
