import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { projectRoot } from "../../server/config.ts";
import { defaultMessages, type RuleName, rules } from "../../server/forms/rules.ts";

/** Per data-val rule: every parameter it takes, and those it cannot work without. */
export interface ValidationRules {
  params: ReadonlyMap<string, readonly string[]>;
  required: ReadonlyMap<string, readonly string[]>;
  /** Where the required parameters come from, for the summary. */
  source: string;
}

const contractFile = resolve(projectRoot, "islands/validation/contract.ts");

/** Parameters a rule's check cannot run without, though its message does not show them. */
const neededByCheck: Partial<Record<RuleName, readonly string[]>> = {
  equalto: ["other"],
  regex: ["pattern"],
  remote: ["url"],
};

/**
 * Until the validation contract says it: a rule needs the parameters its message shows
 * ({0}, {1} in server/forms/rules.ts) and those its check cannot run without.
 */
function derivedRequirements(): Record<string, readonly string[]> {
  const out: Record<string, readonly string[]> = {};
  for (const [rule, definition] of Object.entries(rules) as [RuleName, (typeof rules)[RuleName]][]) {
    const shown = [...defaultMessages[rule].matchAll(/\{(\d+)\}/g)].map(
      (m) => definition.params[Number(m[1])],
    );
    out[rule] = [...new Set([...shown, ...(neededByCheck[rule] ?? [])])].filter((p): p is string =>
      Boolean(p),
    );
  }
  return out;
}

/**
 * The rules the browser and the server know (server/forms/rules.ts). The validation
 * contract (islands/validation/contract.ts), once it exists, says which parameters each rule
 * reads (validationRules) and which it needs (requiredValidationParams).
 */
export async function loadValidationRules(): Promise<ValidationRules> {
  let contract: {
    validationRules?: Record<string, readonly string[]>;
    requiredValidationParams?: Record<string, readonly string[]>;
  } = {};
  if (existsSync(contractFile)) contract = await import(pathToFileURL(contractFile).href);
  const params = new Map<string, readonly string[]>(
    Object.entries(rules).map(([rule, d]) => [rule, d.params]),
  );
  for (const [rule, read] of Object.entries(contract.validationRules ?? {})) {
    params.set(rule, [...new Set([...(params.get(rule) ?? []), ...read])]);
  }
  const required = contract.requiredValidationParams ?? derivedRequirements();
  const source = contract.requiredValidationParams
    ? "islands/validation/contract.ts (requiredValidationParams)"
    : "derived from server/forms/rules.ts";
  return { params, required: new Map(Object.entries(required)), source };
}
