// `npm run check:templates`: renders every page and pattern-library example, one line per problem.
// Options: --route <id> (repeatable) checks only those routes' pages; --report <file> also
// writes the counts as JSON (scripts/test.mjs adds them to its tally).
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { checkTemplates } from "./template-check/index.ts";
import { problemLine } from "./template-check/report.ts";

const { values } = parseArgs({
  options: {
    route: { type: "string", multiple: true },
    report: { type: "string" },
  },
});

const result = await checkTemplates(values.route ? { routes: values.route } : {});
for (const problem of result.problems) console.log(problemLine(problem));
for (const note of result.notes) console.log(`note: ${note}`);

const count = result.problems.length;
const seconds = (result.ms / 1000).toFixed(1);
console.log(
  `\nChecked ${result.pages} pages and ${result.examples} pattern-library examples in ${seconds} s: ` +
    (count === 0 ? "no problems." : `${count} problem${count === 1 ? "" : "s"}.`),
);
if (values.report) {
  writeFileSync(
    values.report,
    JSON.stringify({
      pages: result.pages,
      examples: result.examples,
      problems: count,
      ms: Math.round(result.ms),
    }),
  );
}
process.exitCode = count === 0 ? 0 : 1;
