import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { contracts } from "../../islands/contracts.ts";
import { hooksReference } from "../../scripts/hooks-reference.ts";

describe("the hooks reference (docs/hooks.md)", () => {
  it("is current with the contracts: after changing one, run npm run docs:hooks", () => {
    const written = readFileSync(resolve(import.meta.dirname, "../../docs/hooks.md"), "utf8");
    expect(written, "docs/hooks.md is stale: run npm run docs:hooks").toBe(hooksReference());
  });

  it("lists every hook with its parameters", () => {
    const reference = hooksReference();
    for (const contract of contracts) expect(reference).toContain(`## ${contract.hook}`);
    expect(reference).toContain("| `tooltip.label` | `string` | required |");
  });
});
