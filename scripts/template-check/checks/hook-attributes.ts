import { allElements, inTemplateError, literal, type PageView, rawValue } from "../dom.ts";
import { nearest } from "../edit-distance.ts";
import type { KnownHooks } from "../known-hooks.ts";
import { attributeName } from "../locate.ts";
import type { Finding } from "../report.ts";

/**
 * Prefixes only hooks use: an unknown attribute starting with one is a hook's attribute
 * misspelt, not a styling hook of the page's own (data-state, data-variant…).
 */
export const hookFamilies = [
  "data-ajax-",
  "data-valmsg-",
  "data-lazy-",
  "data-sticky-",
  "data-relative-",
  "data-carousel-",
  "data-upload-",
  "data-tooltip-",
  "data-transform-",
  "data-modal-",
  "data-product-",
  "data-share-",
  "data-tab-",
  "data-password-",
];

/** Event properties of a click: any name is fine (islands/analytics). */
const analyticsProperty = /^data-analytics-./;
/** data-val-* is the validation rules' own check (validation-attributes.ts). */
const validationRule = /^data-val-/;

/**
 * A data-island name the registry does not know, and a data-* attribute no hook reads that
 * looks like one that does: it shares a hook's prefix, or is within two typing slips of a
 * hook's attribute. Attributes unlike any hook's are the page's own and are left alone.
 */
export function hookAttributes(view: PageView, known: KnownHooks): Finding[] {
  const findings: Finding[] = [];
  for (const element of allElements(view.document)) {
    if (inTemplateError(element)) continue;
    for (const attribute of element.attributes) {
      const name = attribute.key;
      if (!name.startsWith("data-")) continue;
      if (name === "data-island") {
        const island = rawValue(element, name) ?? "";
        if (known.islands.has(island)) continue;
        const texts = [`data-island="${island}"`];
        const behaviour = known.behaviours.get(island);
        if (behaviour) {
          findings.push({
            message: `"${island}" is a behaviour, not an island: it starts from its attribute ${behaviour} (data-island="${island}")`,
            texts,
          });
          continue;
        }
        const guess = nearest(island, known.islands);
        findings.push({
          message: `unknown island "${island}" (data-island): islands/registry.ts has no island of that name${guess ? `; did you mean "${guess}"?` : ""}`,
          texts,
        });
        continue;
      }
      if (known.attributes.has(name) || analyticsProperty.test(name) || validationRule.test(name)) continue;
      const family = hookFamilies.find((prefix) => name.startsWith(prefix));
      const guess = nearest(name, known.attributes);
      if (!family && !guess) continue;
      const texts = [literal(element, name), attributeName(name)];
      if (guess) {
        findings.push({ message: `unknown hook attribute "${name}"; did you mean "${guess}"?`, texts });
      } else {
        const relatives = [...known.attributes].filter((a) => family && a.startsWith(family)).sort();
        findings.push({
          message: `unknown hook attribute "${name}": no hook reads it${relatives.length ? ` (known: ${relatives.join(", ")})` : ""}`,
          texts,
        });
      }
    }
  }
  return findings;
}
