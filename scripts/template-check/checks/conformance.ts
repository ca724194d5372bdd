import type { Message } from "html-validate";
import { elementPrint, inTemplateError, type PageView } from "../dom.ts";
import type { Finding } from "../report.ts";

/** Reported by duplicate-ids.ts with the id's own line; html-validate would say it a second time. */
const reportedElsewhere = new Set(["no-dup-id"]);

/**
 * The pattern library shows page parts side by side (a second language switcher, a
 * carousel named like the footer's range): there, landmarks repeat by design.
 */
const libraryExempt = new Set(["unique-landmark"]);

/** HTML that does not conform, as html-validate (with .htmlvalidate.json) reports it. */
export function conformance(view: PageView, messages: readonly Message[], library: boolean): Finding[] {
  const findings: Finding[] = [];
  for (const message of messages) {
    if (reportedElsewhere.has(message.ruleId) || (library && libraryExempt.has(message.ruleId))) continue;
    const element = message.selector ? view.document.querySelector(message.selector) : null;
    if (element && inTemplateError(element)) continue;
    const text = `${message.message} (html-validate ${message.ruleId})`;
    if (!element) {
      findings.push({ message: text });
      continue;
    }
    const within = (location: { offset: number; size: number } | null) =>
      location !== null &&
      message.offset >= location.offset &&
      message.offset <= location.offset + location.size;
    const attribute = element.attributes.find((a) => within(a.keyLocation) || within(a.valueLocation))?.key;
    findings.push({ message: text, element: elementPrint(element, attribute) });
  }
  return findings;
}
