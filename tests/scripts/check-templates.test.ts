import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckResult, checkTemplates } from "../../scripts/template-check/index.ts";
import { problemLine } from "../../scripts/template-check/report.ts";

const views = resolve(import.meta.dirname, "../../views");
const page = "views/pages/customer-service.eta";
const copies: string[] = [];

/**
 * A copy of views/ in which an editor added lines to the customer service page, after its
 * lead paragraph; lineOf(i) is where added line i ended up.
 */
function editedCopy(added: readonly string[]): { views: string; lineOf: (index: number) => number } {
  const dir = mkdtempSync(join(tmpdir(), "template-check-test-"));
  copies.push(dir);
  const copy = join(dir, "views");
  cpSync(views, copy, { recursive: true });
  const file = join(copy, "pages", "customer-service.eta");
  const lines = readFileSync(file, "utf8").split("\n");
  const after = lines.findIndex((line) => line.includes('class="lead"')) + 1;
  lines.splice(after, 0, ...added);
  writeFileSync(file, lines.join("\n"));
  return { views: copy, lineOf: (index) => after + index + 1 };
}

/** Only the customer service pages (nl and de): the pages that render the edited template. */
const checkCustomerService = (copy: string) => checkTemplates({ views: copy, routes: ["customerService"] });

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe("an editor who adds lines to the customer service page", () => {
  const added = {
    tooltip:
      '<div><%~ include("/partials/tooltip", it.with({ tooltip: { label: "x", tekst: "y" } })) %></div>',
    island: '<div data-island="toolip"></div>',
    ajaxTarget:
      '<p><a href="<%= it.href("faq") %>" data-ajax="true" data-ajax-update="#bestaat-niet">FAQ</a></p>',
    textKey: '<p><%= it.t("bestaat.niet") %></p>',
    unknownRule:
      '<form method="post" action="<%= it.href("contact") %>"><input name="naam" aria-label="Naam" data-val="true" data-val-verplicht="Vul je naam in"><button type="submit">Stuur</button></form>',
    ruleWithoutParameter:
      '<form method="post" action="<%= it.href("contact") %>"><input name="code" aria-label="Code" data-val="true" data-val-regex="Alleen cijfers"><button type="submit">Stuur</button></form>',
    link: '<p><a href="/klantenservice/openingstijden">Openingstijden</a></p>',
    firstId: '<h2 id="openingstijden">Openingstijden</h2>',
    secondId: '<p id="openingstijden">Ma–vr 9.00–17.00 uur</p>',
    invalidHtml: '<p><button type="knop">Bel mij terug</button></p>',
    behaviour: "<div data-stiky-header></div>",
  };
  const keys = Object.keys(added) as Array<keyof typeof added>;
  let result: CheckResult;
  let output: string[];
  let lineOf: (key: keyof typeof added) => number;

  beforeAll(async () => {
    const copy = editedCopy(Object.values(added));
    lineOf = (key) => copy.lineOf(keys.indexOf(key));
    result = await checkCustomerService(copy.views);
    output = result.problems.map(problemLine);
  }, 20_000);

  /** The output line at that line of the page's template that says all of `what`. */
  const reported = (key: keyof typeof added, ...what: string[]) => {
    const at = `${page}:${lineOf(key)}  `;
    const line = output.find((l) => l.startsWith(at) && what.every((w) => l.includes(w)));
    expect(line, `no line "${at}… ${what.join(" … ")}" in:\n${output.join("\n")}`).toBeDefined();
    return line ?? "";
  };

  it("misspells a tooltip parameter: the line names the partial and both the unknown and the missing parameter", () => {
    reported("tooltip", 'partial "tooltip"', 'unknown parameter "tooltip.tekst"');
    reported("tooltip", 'partial "tooltip"', 'missing required parameter "tooltip.text"');
  });

  it("misspells an island's name: told the registry has none, with the name it probably meant", () => {
    reported("island", 'unknown island "toolip"', 'did you mean "tooltip"');
  });

  it("points an ajax link at an element that is not on the page", () => {
    reported("ajaxTarget", 'data-ajax-update="#bestaat-niet" matches nothing');
  });

  it("uses a text key that neither language has", () => {
    reported("textKey", 'text key "bestaat.niet"', "locales/nl.json and locales/de.json");
  });

  it("writes a validation rule that does not exist", () => {
    reported("unknownRule", 'unknown validation rule "verplicht"', "data-val-verplicht");
  });

  it("writes a validation rule without the parameter it cannot work without", () => {
    reported("ruleWithoutParameter", 'validation rule "regex" lacks data-val-regex-pattern');
  });

  it("links to an address no route answers", () => {
    reported("link", "link to /klantenservice/openingstijden matches no route (404)");
  });

  it("gives two elements the same id", () => {
    reported("firstId", 'id "openingstijden" is used more than once');
  });

  it("writes HTML that does not conform: told what html-validate says, at the line", () => {
    reported("invalidHtml", '"knop"', "html-validate attribute-allowed-values");
  });

  it("misspells a behaviour's attribute, and is told the right one", () => {
    reported("behaviour", 'unknown hook attribute "data-stiky-header"', 'did you mean "data-sticky-header"');
  });

  it("gets one line per problem, not one per language", () => {
    expect(result.pages).toBe(2);
    expect(new Set(output).size).toBe(output.length);
    expect(output.filter((l) => l.includes('unknown island "toolip"'))).toHaveLength(1);
    expect(reported("island", "toolip")).toMatch(/\(nl \/klantenservice\)$/);
  });
});

describe("an editor who changed nothing", () => {
  it("gets no problems for the customer service pages", async () => {
    const copy = editedCopy([]);
    const result = await checkCustomerService(copy.views);
    expect(result.problems.map(problemLine)).toEqual([]);
    expect(result.pages).toBe(2);
  }, 20_000);
});
