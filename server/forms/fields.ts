import { deliveryCountries } from "../domain/postcode.ts";
import type { FieldDefinition } from "./form.ts";

/**
 * Fields that several forms ask for in the same way. A form takes one as it is, or with its
 * own label or an extra rule (`{ ...emailField, label: … }`), so a limit or a rule for, say,
 * a postcode is decided once for every form that has one.
 */

export const nameField: FieldDefinition = {
  name: "name",
  label: "fields.name",
  autocomplete: "name",
  rules: [{ rule: "required" }, { rule: "maxlength", params: { max: 80 } }],
};

export const emailField: FieldDefinition = {
  name: "email",
  type: "email",
  label: "fields.email",
  hint: "fields.emailHint",
  autocomplete: "email",
  rules: [{ rule: "required" }, { rule: "email" }, { rule: "maxlength", params: { max: 254 } }],
};

export const countryField: FieldDefinition = {
  name: "country",
  control: "select",
  label: "fields.country",
  autocomplete: "country",
  options: deliveryCountries.map((c) => ({ value: c, label: `fields.countries.${c}` })),
  rules: [{ rule: "required" }],
};

/** Checked against the chosen country while typing (remote) and when the form comes in. */
export const postcodeField: FieldDefinition = {
  name: "postcode",
  label: "fields.postcode",
  autocomplete: "postal-code",
  rules: [
    { rule: "required" },
    { rule: "maxlength", params: { max: 10 } },
    { rule: "remote", params: { url: "route:postcodeCheck", additionalfields: "country" } },
  ],
};

/**
 * A new password and its repetition, with the live strength meter. Exact ban mode: a
 * passphrase that merely contains a common word ("zomer") stays allowed.
 */
export function newPasswordFields(labels: { password: string; confirm: string }): FieldDefinition[] {
  return [
    {
      name: "password",
      type: "password",
      label: labels.password,
      autocomplete: "new-password",
      rules: [
        { rule: "required" },
        { rule: "password", params: { min: 8, nonalphamin: 0 } },
        { rule: "maxlength", params: { max: 200 } },
      ],
      strength: { minimumLength: 8, banMode: "exact", message: "validation.passwordWeak" },
    },
    {
      name: "passwordConfirm",
      type: "password",
      label: labels.confirm,
      autocomplete: "new-password",
      rules: [{ rule: "required" }, { rule: "equalto", params: { other: "password" } }],
    },
  ];
}
