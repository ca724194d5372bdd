import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { contracts, hookExamples } from "../../../islands/contracts.ts";
import { registry } from "../../../islands/registry.ts";

const root = resolve(import.meta.dirname, "../../..");
const read = (path: string) => readFileSync(resolve(root, path), "utf8");

/** A newcomer finds every file of a hook from its name: islands/<hook>/ and views/partials/<hook>.eta. */
describe.each(registry.map((hook) => [hook.name, hook] as const))("the %s hook", (name, hook) => {
  it("has its own folder with a contract and examples", () => {
    expect(existsSync(resolve(root, `islands/${name}`)), `islands/${name}/`).toBe(true);
    expect(existsSync(resolve(root, `islands/${name}/contract.ts`)), `islands/${name}/contract.ts`).toBe(
      true,
    );
    expect(existsSync(resolve(root, `islands/${name}/examples.ts`)), `islands/${name}/examples.ts`).toBe(
      true,
    );
  });

  it("is listed with its contract and at least one example in islands/contracts.ts", () => {
    const entry = hookExamples.find((e) => e.contract.hook === name);
    expect(entry, `islands/contracts.ts lists ${name}`).toBeDefined();
    expect(entry?.contract.kind).toBe(hook.kind);
    expect(Object.keys(entry?.examples ?? {}).length).toBeGreaterThan(0);
  });

  it("names its partial after itself, and the partial exists", () => {
    const partial = contracts.find((c) => c.hook === name)?.partial;
    if (!partial) return;
    expect(partial.name).toBe(name);
    expect(existsSync(resolve(root, `views/partials/${name}.eta`)), `views/partials/${name}.eta`).toBe(true);
  });

  it("hands its contract to the runtime, which checks the element before the hook starts", async () => {
    // What the runtime receives is the module's export: it must be this hook's own contract.
    const module = await hook.load();
    expect(module.contract, "the hook's module exports its contract").toBe(
      contracts.find((c) => c.hook === name),
    );
  });

  it("keeps its styles in its folder, bundled into the one stylesheet", () => {
    const css = `islands/${name}/${name}.css`;
    if (!existsSync(resolve(root, css))) return;
    expect(read("static/css/site.css")).toContain(`@import "../../${css}";`);
  });
});

describe("the hooks' contracts", () => {
  it("cover exactly the registry's hooks", () => {
    expect(contracts.map((c) => c.hook).sort()).toEqual(registry.map((h) => h.name).sort());
  });
});
