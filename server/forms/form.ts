import type { Params, Translate } from "../i18n/translate.ts";
import { commonPasswords, passwordStrength, type StrengthOptions } from "./password-strength.ts";
import {
  type FieldContext,
  messageArguments,
  type Notation,
  type RuleName,
  resolveOther,
  rules,
} from "./rules.ts";

/**
 * A form is defined once, here on the server: its fields, their rules and messages.
 * The same definition writes the data-val-* attributes the browser validates with and
 * checks the submitted body with the same rule functions. The server never trusts the
 * browser: a form is only ever accepted by validate().
 */

export interface RuleUse {
  rule: RuleName;
  params?: Record<string, string | number>;
  /** Locale key of the message; by default validation.<rule>. */
  message?: string;
}

export interface FieldDefinition {
  name: string;
  control?: "input" | "textarea" | "select";
  /** The input type; "text" by default. */
  type?: string;
  label: string;
  hint?: string;
  autocomplete?: string;
  inputmode?: string;
  /** For selects: value and the locale key of its label. */
  options?: ReadonlyArray<{ value: string; label: string }>;
  rules: RuleUse[];
  /** A live strength meter on this password field, and the same check on the server. */
  strength?: StrengthOptions & { message: string };
}

export interface FormDefinition {
  id: string;
  fields: FieldDefinition[];
}

export type FormValues = Record<string, string>;
export interface FieldError {
  field: string;
  message: string;
}

/** Answers a remote rule on the server: true when valid, or the message to show. */
export type RemoteCheck = (field: string, values: FormValues) => Promise<true | string>;

export interface Form extends FormDefinition {
  field(name: string): FieldDefinition;
  /**
   * data-val-* attributes of one field, messages in the shopper's language. A parameter
   * written "route:<id>" (a remote check's URL) becomes that route's path via href.
   */
  attributes(name: string, t: Translate, href?: (routeId: string) => string): Record<string, string>;
  /** Reads the submitted body: every defined field as a string, as typed. */
  values(body: unknown): FormValues;
  /**
   * Checks the submitted values. `locale` is the page's language: number and date rules then
   * read the notation the browser reads there (the page's lang); see FieldContext.locale.
   */
  validate(values: FormValues, t: Translate, remote?: RemoteCheck, locale?: Notation): Promise<FieldError[]>;
}

function message(use: RuleUse, t: Translate): string {
  const args: Params = Object.fromEntries(messageArguments(use.rule, use.params ?? {}).entries());
  return t(use.message ?? `validation.${use.rule}`, args);
}

function stringParams(use: RuleUse): Record<string, string> {
  return Object.fromEntries(Object.entries(use.params ?? {}).map(([k, v]) => [k, String(v)]));
}

export function defineForm(definition: FormDefinition): Form {
  const byName = new Map(definition.fields.map((f) => [f.name, f]));
  const field = (name: string) => {
    const found = byName.get(name);
    if (!found) throw new Error(`form ${definition.id} has no field "${name}"`);
    return found;
  };

  return {
    ...definition,
    field,

    attributes(name, t, href) {
      const f = field(name);
      const attrs: Record<string, string> = {};
      if (f.rules.length > 0) attrs["data-val"] = "true";
      for (const use of f.rules) {
        attrs[`data-val-${use.rule}`] = message(use, t);
        for (const [param, value] of Object.entries(stringParams(use))) {
          const route = value.startsWith("route:") ? value.slice(6) : undefined;
          if (route && !href) throw new Error(`field ${name}: ${param} names a route, but no href was given`);
          attrs[`data-val-${use.rule}-${param}`] = route && href ? href(route) : value;
        }
      }
      if (f.strength) {
        attrs["data-password-strength"] = "";
        attrs["data-strength-min"] = String(f.strength.minimumLength ?? 8);
        attrs["data-strength-ban-mode"] = f.strength.banMode ?? "strict";
        attrs["data-strength-message"] = t(f.strength.message);
      }
      return attrs;
    },

    values(body) {
      const source = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
      const values: FormValues = {};
      for (const f of definition.fields) {
        const raw = source[f.name];
        // A field sent twice (a tampered form) counts as its last value, never as an array.
        const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
        values[f.name] = typeof value === "string" ? value.replace(/\r\n/g, "\n") : "";
      }
      return values;
    },

    async validate(values, t, remote, locale) {
      const errors: FieldError[] = [];
      for (const f of definition.fields) {
        const value = values[f.name] ?? "";
        const context: FieldContext = {
          otherValue: (other) => values[resolveOther(f.name, other)],
          kind: f.control === "select" ? "select" : "text",
          locale,
        };
        let failed: string | undefined;
        for (const use of f.rules) {
          if (use.rule === "remote") continue;
          if (!rules[use.rule].check(value, stringParams(use), context)) {
            failed = message(use, t);
            break;
          }
        }
        if (!failed && f.options && value !== "" && !f.options.some((o) => o.value === value)) {
          failed = t("validation.choice");
        }
        if (
          !failed &&
          f.strength &&
          value !== "" &&
          !passwordStrength(value, { banList: commonPasswords, ...f.strength }).valid
        ) {
          failed = t(f.strength.message);
        }
        if (!failed && remote && value !== "" && f.rules.some((r) => r.rule === "remote")) {
          const answer = await remote(f.name, values);
          if (answer !== true) failed = answer;
        }
        if (failed) errors.push({ field: f.name, message: failed });
      }
      return errors;
    },
  };
}
