import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkTemplates } from "../../scripts/template-check/index.ts";
import { problemLine } from "../../scripts/template-check/report.ts";

const views = resolve(import.meta.dirname, "../../views");
const dir = mkdtempSync(join(tmpdir(), "template-check-analytics-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Lines an editor added to the customer service page, after its lead paragraph. */
const added = [
  '<p><a href="<%= it.href("faq") %>" data-analytics="faq.opn" data-analytics-topic="delivery">FAQ</a></p>',
  '<p><a href="<%= it.href("contact") %>" data-analytics="share" data-analytics-network="mail" data-analytics-email="<%= it.locale %>@x.nl">Mail</a></p>',
  '<p><a href="<%= it.href("faq") %>" data-analytics="tabs.open" data-analytics-tab="faq" data-analytics-via="link">FAQ</a></p>',
];

describe("the template check on counted links", () => {
  let output: string[];
  let lineOf: (index: number) => number;

  beforeAll(async () => {
    const copy = join(dir, "views");
    cpSync(views, copy, { recursive: true });
    const file = join(copy, "pages", "customer-service.eta");
    const lines = readFileSync(file, "utf8").split("\n");
    const after = lines.findIndex((line) => line.includes('class="lead"')) + 1;
    lines.splice(after, 0, ...added);
    writeFileSync(file, lines.join("\n"));
    lineOf = (index) => after + index + 1;
    const result = await checkTemplates({ views: copy, routes: ["customerService"] });
    output = result.problems.map(problemLine);
  }, 20_000);

  const at = (index: number) =>
    output.filter((l) => l.startsWith(`views/pages/customer-service.eta:${lineOf(index)}  `));

  it("names an event outside the catalogue, with the name it probably meant", () => {
    expect(at(0).join("\n")).toContain('unknown analytics event "faq.opn"');
    expect(at(0).join("\n")).toContain('did you mean "faq.open"?');
  });

  it("names a property the event does not take, and what it takes", () => {
    expect(at(1).join("\n")).toContain(
      'analytics event "share" has no property "email" (data-analytics-email); it takes network',
    );
  });

  it("says nothing about a catalogue event with its own properties, nor about the shop's own templates", () => {
    expect(at(2)).toEqual([]);
    expect(
      output.filter((l) => l.includes("analytics") && !added.some((_, i) => l.includes(`:${lineOf(i)}  `))),
    ).toEqual([]);
  });
});
