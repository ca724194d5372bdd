import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import type { Eta } from "eta";
import type { FastifyBaseLogger } from "fastify";
import type { HookContract } from "../../../islands/runtime/define-hook.ts";
import { type ParameterProblem, parameterProblems } from "../../../islands/runtime/define-hook.ts";
import { escapeHtml } from "./html.ts";

/**
 * How a partial given wrong parameters shows: "box" (development, the template check) puts
 * a visible error in the component's place; "omit" (production) leaves the component out,
 * so a shopper never sees details, and logs the mistake.
 */
export type TemplateErrorMode = "box" | "omit";

export interface TemplateProblem extends ParameterProblem {
  /** The template that included the partial, as a path from the project root. */
  template: string;
  line: number | undefined;
  partial: string;
}

/** "/partials/tooltip", "pages/home.eta" → "partials/tooltip", "pages/home". */
const templateName = (name: string) => name.replace(/^[/@]+/, "").replace(/\.eta$/, "");

/**
 * Makes the Eta instance check every partial that has a contract against its parameters
 * before rendering it. Rendering is synchronous, so a stack of template names tells which
 * template included the partial.
 */
export function checkPartials(
  eta: Eta,
  contracts: readonly HookContract[],
  options: { mode: TemplateErrorMode; views: string; log: FastifyBaseLogger; projectRoot: string },
): void {
  const byPartial = new Map<string, HookContract>();
  for (const contract of contracts) if (contract.partial) byPartial.set(contract.partial.name, contract);
  const stack: string[] = [];
  const logged = new Set<string>();
  const render = eta.render.bind(eta);

  const fileOf = (name: string) =>
    relative(options.projectRoot, resolve(options.views, `${templateName(name)}.eta`)).replaceAll("\\", "/");

  /** The line of the include in the including template: the one that names the wrong parameter if several do. */
  const lineOf = (template: string, partial: string, parameter: string): number | undefined => {
    let source: string;
    try {
      source = readFileSync(resolve(options.views, `${templateName(template)}.eta`), "utf8");
    } catch {
      return undefined;
    }
    const lines = source.split("\n");
    const includes = lines
      .map((text, index) => ({ text, line: index + 1 }))
      .filter(({ text }) => text.includes(`/partials/${partial}"`) || text.includes(`/partials/${partial}'`));
    const last = parameter.split(".").at(-1) ?? "";
    return (includes.find(({ text }) => last && new RegExp(`\\b${last}\\b`).test(text)) ?? includes[0])?.line;
  };

  eta.render = ((template: string | ((...args: unknown[]) => string), data: object, meta?: object) => {
    if (typeof template !== "string") return render(template as never, data, meta as never);
    const name = templateName(template);
    const partial = name.startsWith("partials/") ? name.slice("partials/".length) : undefined;
    const contract = partial ? byPartial.get(partial) : undefined;
    if (contract?.partial && partial) {
      const key = contract.partial.key;
      const problems = parameterProblems(
        contract.partial.params,
        (data as Record<string, unknown>)[key],
        key,
      );
      if (problems.length > 0) {
        const including = stack.at(-1) ?? name;
        const found: TemplateProblem[] = problems.map((problem) => ({
          ...problem,
          partial,
          template: fileOf(including),
          line: lineOf(including, partial, problem.parameter),
        }));
        return reportProblems(found);
      }
    }
    stack.push(name);
    try {
      return render(template, data, meta as never);
    } finally {
      stack.pop();
    }
  }) as Eta["render"];

  function reportProblems(problems: TemplateProblem[]): string {
    for (const problem of problems) {
      const where = `${problem.template}${problem.line ? `:${problem.line}` : ""}`;
      const id = `${where} ${problem.partial} ${problem.parameter}`;
      if (options.mode === "omit" && !logged.has(id)) {
        logged.add(id);
        options.log.error(
          { template: where, partial: problem.partial, parameter: problem.parameter },
          `template error: ${where}: partial "${problem.partial}": ${problem.message}`,
        );
      }
    }
    if (options.mode === "omit") return "";
    return problems
      .map((problem) => {
        const where = `${problem.template}${problem.line ? `:${problem.line}` : ""}`;
        return (
          `<div class="template-error" role="alert" data-template-error="${escapeHtml(problem.message)}"` +
          ` data-template="${escapeHtml(where)}" data-partial="${escapeHtml(problem.partial)}"` +
          ` data-parameter="${escapeHtml(problem.parameter)}">` +
          `<strong>Template error</strong> in <code>${escapeHtml(where)}</code>: partial <code>${escapeHtml(problem.partial)}</code>: ${escapeHtml(problem.message)}</div>`
        );
      })
      .join("\n");
  }
}
