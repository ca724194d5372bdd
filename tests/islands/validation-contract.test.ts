// @vitest-environment happy-dom
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import type { HookDefinition } from "../../islands/runtime/types.ts";
import { contract, validationRules } from "../../islands/validation/contract.ts";
import { rules } from "../../server/forms/rules.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

afterAll(closeExamples);
afterEach(() => {
  document.body.innerHTML = "";
});

describe("the validation contract", () => {
  it("names every rule the server knows, with each parameter as an attribute", () => {
    expect(Object.keys(validationRules).sort()).toEqual(Object.keys(rules).sort());
    const names = Object.keys(contract.attributes?.shape ?? {});
    expect(names).toContain("data-val-length-min");
    expect(names).toContain("data-val-remote-additionalfields");
    for (const [rule, params] of Object.entries(validationRules)) {
      expect(names).toContain(`data-val-${rule}`);
      for (const param of params) expect(names).toContain(`data-val-${rule}-${param}`);
    }
  });

  it("reports a field whose data-val is not true once, naming the hook and the attribute", async () => {
    // The example points at the library's form; a field written as a form definition would write it.
    document.body.innerHTML = `${await exampleHtml("validation")}<form><input name="name" data-val="yes" data-val-required="Vul dit in."></form>`;
    const report = vi.fn();
    const hook: HookDefinition = {
      kind: "behaviour",
      name: "validation",
      selector: "form [data-val]",
      load: async () => ({ start: () => {}, contract }),
    };
    await createRuntime([hook], document, report).scan(document);
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[0]).toMatch(/"validation".*data-val="yes"/);
  });
});
