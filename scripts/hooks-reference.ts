import { contracts } from "../islands/contracts.ts";
import { type HookContract, type ParameterRow, parameterRows } from "../islands/runtime/define-hook.ts";

/**
 * docs/hooks.md, written from the hooks' contracts (islands/<hook>/contract.ts), so the
 * reference can never disagree with what the server and the runtime check.
 */
export function hooksReference(all: readonly HookContract[] = contracts): string {
  const out: string[] = [
    "# Hooks reference",
    "",
    "Written by `npm run docs:hooks` from `islands/<hook>/contract.ts`; do not edit by hand.",
    "Every hook is shown live, with its examples, in the pattern library (`/patroonbibliotheek`,",
    "`/musterbibliothek`, on with `npm run dev`). How to use them: `docs/content-editors.md`.",
    "",
    "| hook | kind | partial |",
    "|---|---|---|",
    ...all.map(
      (c) =>
        `| [${c.hook}](#${c.hook}) | ${c.kind} | ${c.partial ? `\`views/partials/${c.partial.name}.eta\`` : "none: attributes only"} |`,
    ),
  ];
  for (const contract of all) out.push("", ...section(contract));
  return `${out.join("\n")}\n`;
}

function section(c: HookContract): string[] {
  const lines = [
    `## ${c.hook}`,
    "",
    c.whenToUse,
    "",
    `Files: \`islands/${c.hook}/\`${c.partial ? `, \`views/partials/${c.partial.name}.eta\`` : ""}.`,
  ];
  if (c.partial) {
    lines.push(
      "",
      `Include it as \`include("/partials/${c.partial.name}", it.with({ ${c.partial.key}: { … } }))\`.`,
      "",
      ...table("Parameter", parameterRows(c.partial.params, `${c.partial.key}.`)),
    );
  }
  if (c.props)
    lines.push(
      "",
      "The island reads these props (`data-props`, JSON):",
      "",
      ...table("Prop", parameterRows(c.props)),
    );
  if (c.attributes)
    lines.push(
      "",
      "Attributes on the hook's element:",
      "",
      ...table("Attribute", parameterRows(c.attributes)),
    );
  if (c.parts) {
    lines.push("", "Elements inside it:", "", "| selector | required | what it is |", "|---|---|---|");
    for (const [selector, part] of Object.entries(c.parts))
      lines.push(`| \`${cell(selector)}\` | ${part.required ? "yes" : "no"} | ${cell(part.description)} |`);
  }
  if (c.companions) {
    lines.push(
      "",
      "Attributes on its companions elsewhere on the page:",
      "",
      "| attribute | what it is |",
      "|---|---|",
    );
    for (const [name, description] of Object.entries(c.companions))
      lines.push(`| \`${cell(name)}\` | ${cell(description)} |`);
  }
  return lines;
}

function table(heading: string, rows: ParameterRow[]): string[] {
  return [
    `| ${heading.toLowerCase()} | type | required or default | meaning |`,
    "|---|---|---|---|",
    ...rows.map(
      (row) =>
        `| \`${cell(row.name)}\` | \`${cell(row.type)}\` | ${row.required ? "required" : (row.defaultValue ?? "optional")} | ${cell(row.description)} |`,
    ),
  ];
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
