import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { HookContract } from "../../islands/runtime/define-hook.ts";
import type { HookDefinition } from "../../islands/runtime/types.ts";

/** What the templates may write for the browser: island names and the hooks' data-* attributes. */
export interface KnownHooks {
  /** data-island values: the registry's islands. */
  islands: ReadonlySet<string>;
  /** Behaviours by name, with the attribute that starts each (they take no data-island). */
  behaviours: ReadonlyMap<string, string>;
  /** Every data-* attribute a hook reads, or the runtime does for every hook. */
  attributes: ReadonlySet<string>;
}

/** Whatever the hook: the runtime reads these on every island's element. */
const runtimeAttributes = ["data-island", "data-island-state", "data-props"];

/** The attribute names in a selector: `img[data-carousel-src]`, `[data-ajax="true"]`. */
export const selectorAttributes = (selector: string) =>
  [...selector.matchAll(/\[\s*([\w-]+)/g)]
    .map((m) => m[1] as string)
    .filter((name) => name.startsWith("data-"));

/** The data-* attributes a module's source reads: written out, or through dataset. */
function sourceAttributes(source: string): string[] {
  const written = [...source.matchAll(/(?<![\w-])(data-[a-z0-9]+(?:-[a-z0-9]+)*)(?![\w-])/g)].map(
    (m) => m[1] as string,
  );
  const viaDataset = [...source.matchAll(/\bdataset\.([a-zA-Z][a-zA-Z0-9]*)/g)].map(
    (m) => `data-${(m[1] as string).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
  );
  return [...written, ...viaDataset];
}

function sourcesIn(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sourcesIn(full));
    else if (/\.tsx?$/.test(entry) && !entry.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/**
 * Known from the contracts (their attributes, the attributes their parts select on), the
 * registry (each behaviour's selector) and what the islands' sources read, written out or
 * through dataset: a hook without a contract yet is known all the same.
 */
export function knownHooks(options: {
  contracts: readonly HookContract[];
  registry: readonly HookDefinition[];
  islandsDir: string;
}): KnownHooks {
  const { contracts, registry, islandsDir } = options;
  const attributes = new Set<string>(runtimeAttributes);
  for (const contract of contracts) {
    for (const name of Object.keys(contract.attributes?.shape ?? {})) attributes.add(name);
    for (const name of Object.keys(contract.companions ?? {})) attributes.add(name);
    for (const selector of Object.keys(contract.parts ?? {})) {
      for (const name of selectorAttributes(selector)) attributes.add(name);
    }
  }
  const behaviours = new Map<string, string>();
  for (const hook of registry) {
    if (hook.kind !== "behaviour") continue;
    const names = selectorAttributes(hook.selector);
    for (const name of names) attributes.add(name);
    if (names[0]) behaviours.set(hook.name, names[0]);
  }
  // Contracts do not list everything a hook reads yet (an element elsewhere on the page, an
  // attribute named only in a description): what the islands' sources read counts too.
  for (const file of sourcesIn(islandsDir)) {
    for (const name of sourceAttributes(readFileSync(file, "utf8"))) attributes.add(name);
  }
  return {
    islands: new Set(registry.filter((h) => h.kind === "island").map((h) => h.name)),
    behaviours,
    attributes,
  };
}
