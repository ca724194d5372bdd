import { countryField, postcodeField } from "./fields.ts";
import { defineForm, type FieldDefinition } from "./form.ts";

/**
 * The validation hook's rule examples in the pattern library: one field per rule, so every
 * rule the browser and the server share (rules.ts) can be tried, with and without JavaScript.
 * Every field but `required` (and the password, whose rule has no optional check) may stay
 * empty, so each rule can be tried on its own.
 */

const text = (name: string, rules: FieldDefinition["rules"], extra: Partial<FieldDefinition> = {}) => ({
  name,
  label: `patterns.validation.rules.fields.${name}`,
  hint: `patterns.validation.rules.hints.${name}`,
  rules,
  ...extra,
});

export const patternRulesForm = defineForm({
  id: "rules",
  fields: [
    text("required", [{ rule: "required" }]),
    text("email", [{ rule: "email" }], { type: "email", autocomplete: "off" }),
    text("url", [{ rule: "url" }], { type: "url", autocomplete: "off" }),
    text("date", [{ rule: "date" }], { autocomplete: "off" }),
    text("number", [{ rule: "number" }], { inputmode: "decimal", autocomplete: "off" }),
    text("digits", [{ rule: "digits" }], { inputmode: "numeric", autocomplete: "off" }),
    text("creditcard", [{ rule: "creditcard" }], { inputmode: "numeric", autocomplete: "off" }),
    text("original", [], { autocomplete: "off" }),
    text("repeat", [{ rule: "equalto", params: { other: "original" } }], { autocomplete: "off" }),
    text("minlength", [{ rule: "minlength", params: { min: 3 } }], { autocomplete: "off" }),
    text("maxlength", [{ rule: "maxlength", params: { max: 10 } }], { autocomplete: "off" }),
    // Unobtrusive validation's data-val-length is jQuery Validation's rangelength.
    text("rangelength", [{ rule: "length", params: { min: 3, max: 10 } }], { autocomplete: "off" }),
    text("min", [{ rule: "min", params: { min: 24 } }], { inputmode: "decimal", autocomplete: "off" }),
    text("max", [{ rule: "max", params: { max: 100 } }], { inputmode: "decimal", autocomplete: "off" }),
    text("range", [{ rule: "range", params: { min: 1, max: 12 } }], {
      inputmode: "decimal",
      autocomplete: "off",
    }),
    text("regex", [{ rule: "regex", params: { pattern: "[A-Z]{4}-\\d{4}" } }], { autocomplete: "off" }),
    { ...countryField, label: "patterns.validation.rules.fields.country", autocomplete: "off" },
    // The shop's own remote check (server/routes/remote-checks.ts), here without required.
    text(
      "postcode",
      postcodeField.rules.filter((use) => use.rule !== "required"),
      { autocomplete: "off" },
    ),
    text("password", [{ rule: "password", params: { min: 8, nonalphamin: 1 } }], {
      type: "password",
      autocomplete: "new-password",
      strength: { minimumLength: 8, banMode: "exact", message: "validation.passwordWeak" },
    }),
  ],
});

/** The form's fields under a legend each: one group per family of rules. */
export const patternRuleGroups: ReadonlyArray<{ legend: string; fields: readonly string[] }> = [
  {
    legend: "patterns.validation.rules.groups.format",
    fields: ["required", "email", "url", "date", "number", "digits", "creditcard"],
  },
  { legend: "patterns.validation.rules.groups.equalto", fields: ["original", "repeat"] },
  { legend: "patterns.validation.rules.groups.length", fields: ["minlength", "maxlength", "rangelength"] },
  { legend: "patterns.validation.rules.groups.numbers", fields: ["min", "max", "range"] },
  {
    legend: "patterns.validation.rules.groups.more",
    fields: ["regex", "country", "postcode", "password"],
  },
];
