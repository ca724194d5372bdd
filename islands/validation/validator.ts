import { commonPasswords, passwordStrength } from "../../server/forms/password-strength.ts";
import {
  defaultMessages,
  type FieldContext,
  formatMessage,
  messageArguments,
  type Notation,
  type RuleName,
  resolveOther,
  rules,
} from "../../server/forms/rules.ts";
import { checkRemote } from "./remote.ts";

/**
 * Client validation driven by the attributes the server's form definition writes:
 * data-val="true", data-val-<rule> (message), data-val-<rule>-<param>, and the
 * [data-valmsg-for] / [data-valmsg-summary] elements. The rule functions are the
 * server's own (server/forms/rules.ts), so both sides agree.
 */

export type FieldControl = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

interface FieldRule {
  rule: RuleName;
  message: string;
  params: Record<string, string>;
}

const ruleNames = new Set(Object.keys(rules));
export function readRules(control: Element): FieldRule[] {
  const found: FieldRule[] = [];
  for (const { name, value } of control.attributes) {
    const rule = name.slice("data-val-".length);
    if (!name.startsWith("data-val-") || !ruleNames.has(rule)) continue;
    const params: Record<string, string> = {};
    for (const attr of control.attributes) {
      if (attr.name.startsWith(`${name}-`)) params[attr.name.slice(name.length + 1)] = attr.value;
    }
    const args = messageArguments(rule as RuleName, params);
    found.push({
      rule: rule as RuleName,
      params,
      message: value || formatMessage(defaultMessages[rule as RuleName], args),
    });
  }
  return found;
}

export function controlsOf(form: HTMLFormElement): FieldControl[] {
  return [...form.querySelectorAll<FieldControl>('[data-val="true"]')].filter(
    (c) => !c.disabled && !(c instanceof HTMLInputElement && c.type === "hidden") && c.name,
  );
}

export function fieldValue(form: HTMLFormElement, name: string): string | undefined {
  const controls = [...form.elements].filter((e) => (e as FieldControl).name === name) as FieldControl[];
  if (controls.length === 0) return undefined;
  for (const c of controls) {
    if (c instanceof HTMLInputElement && (c.type === "checkbox" || c.type === "radio")) {
      if (c.checked) return c.value;
    } else return c.value;
  }
  return "";
}

/**
 * The page's language decides how numbers and dates are written, as the server's check of
 * the same form does with the request's locale (Form.validate).
 */
export function notationOf(control: Element): Notation | undefined {
  const lang = control.closest("[lang]")?.getAttribute("lang")?.slice(0, 2).toLowerCase();
  return lang === "nl" || lang === "de" ? lang : undefined;
}

export interface FieldResult {
  control: FieldControl;
  message: string | undefined;
}

/** Checks one field; a remote rule makes it asynchronous. */
export async function checkField(form: HTMLFormElement, control: FieldControl): Promise<FieldResult> {
  const value = fieldValue(form, control.name) ?? "";
  const context: FieldContext = {
    otherValue: (other: string) => fieldValue(form, resolveOther(control.name, other)),
    locale: notationOf(control),
  };
  for (const r of readRules(control)) {
    if (r.rule === "remote") {
      if (value === "") continue;
      const query = new URLSearchParams();
      const extra = (r.params.additionalfields ?? control.name).split(",").map((s) => s.trim());
      for (const name of new Set([control.name, ...extra])) {
        if (name) {
          const resolved = resolveOther(control.name, name);
          query.set(resolved, fieldValue(form, resolved) ?? "");
        }
      }
      const answer = await checkRemote(control, r.params.url ?? "", query);
      if (!answer.valid) return { control, message: answer.message ?? r.message };
      continue;
    }
    if (!rules[r.rule].check(value, r.params, context)) return { control, message: r.message };
  }
  if (control.hasAttribute("data-password-strength") && value !== "") {
    const strength = passwordStrength(value, {
      minimumLength: Number(control.dataset.strengthMin) || 8,
      banMode: control.dataset.strengthBanMode === "exact" ? "exact" : "strict",
      banList: commonPasswords,
    });
    if (!strength.valid)
      return { control, message: control.dataset.strengthMessage ?? defaultMessages.password };
  }
  return { control, message: undefined };
}
