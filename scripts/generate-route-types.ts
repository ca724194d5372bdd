// `npm run routes:types`: writes server/i18n/route-ids.generated.ts from the route paths in
// locales/nl.json. TypeScript infers only `string` from a JSON import, so the route ids and their
// :params need a TypeScript module of their own for pathFor() to be checked at compile time.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ownPath = fileURLToPath(import.meta.url);
const projectRoot = resolve(dirname(ownPath), "..");

/** nl is the reference: de is checked against it, at start-up and in the tests. */
export const referenceLocaleFile = resolve(projectRoot, "locales/nl.json");
export const generatedFile = resolve(projectRoot, "server/i18n/route-ids.generated.ts");

/** The same groups, and the same idea of a parameter, as buildRouteTable in server/i18n/routes.ts. */
const routeGroups = ["routes", "api"] as const;
const paramPattern = /:(\w+)/g;

/** Each route id of a locale file with the names of its path's :params, in path order. */
export function routeParamNamesOf(messages: unknown, file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const root = (messages ?? {}) as Record<string, unknown>;
  for (const group of routeGroups) {
    const node = root[group];
    if (node === undefined) continue;
    if (typeof node !== "object" || node === null) throw new Error(`${file}: "${group}" must be a group`);
    for (const [id, path] of Object.entries(node)) {
      if (typeof path !== "string" || !path.startsWith("/")) {
        throw new Error(`${file}: ${group}.${id} must be a path starting with /`);
      }
      if (out.has(id)) throw new Error(`${file}: route id "${id}" is defined twice`);
      const names = [...path.matchAll(paramPattern)].map((m) => m[1] as string);
      out.set(id, names);
    }
  }
  return out;
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/** The module's text, already as Biome formats it, so that `npm run lint` accepts it unchanged. */
export function renderRouteTypes(messages: unknown): string {
  const source = relative(projectRoot, referenceLocaleFile).split("\\").join("/");
  const entries = [...routeParamNamesOf(messages, source)].map(([id, names]) => {
    const key = identifier.test(id) ? id : JSON.stringify(id);
    return `  ${key}: [${names.map((n) => JSON.stringify(n)).join(", ")}],`;
  });
  return `// Generated from ${source} by \`npm run routes:types\` (node --import tsx scripts/generate-route-types.ts).
// Do not edit: change the paths in the locale files and run that command again.

/** Per route id, the names of the :params in its path. */
export const routeParamNames = {
${entries.join("\n")}
} as const;

export type RouteId = keyof typeof routeParamNames;

/** Exactly the parameters a route's path needs, each one required; {} for a route without any. */
export type RouteParamsOf<Id extends RouteId> = { [Name in (typeof routeParamNames)[Id][number]]: string };
`;
}

export function readReferenceMessages(): unknown {
  return JSON.parse(readFileSync(referenceLocaleFile, "utf8"));
}

if (process.argv[1] && resolve(process.argv[1]) === ownPath) {
  writeFileSync(generatedFile, renderRouteTypes(readReferenceMessages()));
  console.log(`wrote ${relative(projectRoot, generatedFile)}`);
}
