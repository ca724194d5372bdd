import { type RuleName, rules } from "../../server/forms/rules.ts";
import { defineHook, z } from "../runtime/define-hook.ts";

/**
 * Every rule the browser and the server know (server/forms/rules.ts), with the parameter
 * suffixes it reads: data-val-length-min is rule "length", parameter "min". The template
 * check uses it to tell a real data-val-* name from a misspelt one.
 */
export const validationRules: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(rules).map(([name, rule]) => [name, rule.params]),
);

/** The parameters a rule cannot work without; every other parameter may be left out. */
export const requiredValidationParams: Record<string, readonly string[]> = {
  equalto: ["other"],
  regex: ["pattern"],
  remote: ["url"],
};

const ruleMeaning: Record<RuleName, string> = {
  required: "the field must be filled in",
  email: "an e-mail address",
  url: "a web address",
  date: "a date on the calendar, written as the page's language does (nl: 28-02-2026, 28/2/26 or 28.02.2026; de: 28.02.2026 or 28.2.26; no lang: ISO 2026-02-28)",
  number: "a number, written as the page's language does (nl and de: 1.234,56 or 1234,5; no lang: 1,234.56)",
  digits: "digits only",
  creditcard: "a card number that passes the Luhn check",
  equalto: "the same as another field",
  length: "a length between min and max characters",
  minlength: "at least min characters",
  maxlength: "at most max characters",
  range: "a number (written as for number) between min and max",
  min: "a number (written as for number) of at least min",
  max: "a number (written as for number) of at most max",
  regex: "matches pattern as a whole",
  password: "a password with min characters, nonalphamin others than letters and digits, matching regex",
  remote: "the server answers whether the value is right (GET url)",
};

const ruleAttributes: Record<string, z.ZodOptional<z.ZodString>> = {};
for (const [name, rule] of Object.entries(rules) as Array<[RuleName, (typeof rules)[RuleName]]>) {
  ruleAttributes[`data-val-${name}`] = z
    .string()
    .optional()
    .describe(`The message when the value is not ${ruleMeaning[name]}`);
  for (const param of rule.params) {
    ruleAttributes[`data-val-${name}-${param}`] = z
      .string()
      .optional()
      .describe(
        `The ${name} rule's ${param}${requiredValidationParams[name]?.includes(param) ? " (needed)" : ""}`,
      );
  }
}

export const contract = defineHook({
  hook: "validation",
  kind: "behaviour",
  whenToUse:
    "On every form field with rules. Never write these attributes by hand: a form definition (server/forms) writes them through views/partials/forms/field.eta and checks the same rules on the server. Numbers and dates are read in the notation of the page's lang (jQuery Validation's methods_nl/methods_de); the server reads the request's locale the same way.",
  attributes: z.object({
    "data-val": z.enum(["true"]).describe("The field has rules; the form is checked before it is sent"),
    ...ruleAttributes,
    "data-valmsg-for": z
      .string()
      .optional()
      .describe(
        "On the field's message element (not the field): the name of the field whose message it shows",
      ),
    "data-valmsg-replace": z
      .enum(["true", "false"])
      .optional()
      .describe("On the message element: false keeps its own text instead of the rule's message"),
    "data-valmsg-summary": z
      .enum(["true"])
      .optional()
      .describe("On the form's error summary (not the field): lists every problem, linked to its field"),
    "data-error-prefix": z
      .string()
      .optional()
      .describe('On the form: words screen readers hear before each message ("Fout:")'),
  }),
});
