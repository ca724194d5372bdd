import { AxeBuilder } from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The WCAG levels every page is checked against. */
export const wcagTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

type AxeViolation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

/** Violations as a reader of a failed test wants them: rule, help, and each offending node. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes
        .map((node) => {
          const summary = (node.failureSummary ?? "").replaceAll("\n", "\n      ");
          return `  - ${node.target.join(" ")}\n    ${node.html}\n      ${summary}`;
        })
        .join("\n");
      return `${violation.id} [${violation.impact ?? "?"}]: ${violation.help}\n  ${violation.helpUrl}\n${nodes}`;
    })
    .join("\n\n");
}

/** Runs axe on the page as it is now and fails with a readable list of what is wrong. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  // A click that submits a form resolves once the next page commits, before its stylesheet
  // applies; axe would then measure unstyled links (target-size) and report them.
  await page.waitForLoadState("load");
  const results = await new AxeBuilder({ page }).withTags(wcagTags).analyze();
  expect(
    results.violations.map((violation) => violation.id),
    `axe violations ${where}:\n\n${describeViolations(results.violations)}`,
  ).toEqual([]);
}
