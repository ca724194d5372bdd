import { allElements, inTemplateError, type PageView, rawValue } from "../dom.ts";
import { nearest } from "../edit-distance.ts";
import { attributeName } from "../locate.ts";
import type { Finding } from "../report.ts";
import type { ValidationRules } from "../validation-rules.ts";

/**
 * data-val-<rule> (its message) and data-val-<rule>-<parameter>: a rule that does not
 * exist, a parameter the rule does not take, or a rule without a parameter it needs.
 * The browser skips what it does not know, so such a field is silently not checked.
 */
export function validationAttributes(view: PageView, known: ValidationRules): Finding[] {
  const findings: Finding[] = [];
  const ruleNames = [...known.params.keys()];
  for (const element of allElements(view.document)) {
    if (inTemplateError(element)) continue;
    const names = element.attributes.map((a) => a.key).filter((n) => n.startsWith("data-val-"));
    if (names.length === 0) continue;
    const at = (name: string) => [attributeName(name)];
    const present = new Set(names);
    for (const name of names) {
      const [rule = "", ...rest] = name.slice("data-val-".length).split("-");
      const param = rest.join("-");
      const params = known.params.get(rule);
      if (!params) {
        const guess = nearest(rule, ruleNames);
        findings.push({
          message: `unknown validation rule "${rule}" (${name})${guess ? `; did you mean "data-val-${guess}${param ? `-${param}` : ""}"?` : `; rules: ${ruleNames.join(", ")}`}`,
          texts: at(name),
        });
        continue;
      }
      if (param && !params.includes(param)) {
        const guess = nearest(param, params);
        findings.push({
          message: `validation rule "${rule}" has no parameter "${param}" (${name})${guess ? `; did you mean "data-val-${rule}-${guess}"?` : params.length ? `; it takes ${params.join(", ")}` : "; it takes none"}`,
          texts: at(name),
        });
        continue;
      }
      if (param && !present.has(`data-val-${rule}`)) {
        findings.push({
          message: `${name} without its rule data-val-${rule} (the rule's message)`,
          texts: at(name),
        });
      }
      if (!param) {
        const missing = (known.required.get(rule) ?? []).filter((p) => !present.has(`${name}-${p}`));
        if (missing.length > 0) {
          findings.push({
            message: `validation rule "${rule}" lacks ${missing.map((p) => `${name}-${p}`).join(" and ")}`,
            texts: at(name),
          });
        }
      }
    }
    if (rawValue(element, "data-val") !== "true") {
      findings.push({
        message: `${names[0]} on an element without data-val="true": its rules are never checked`,
        texts: at(names[0] as string),
      });
    }
  }
  return findings;
}
