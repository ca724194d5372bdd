// @vitest-environment happy-dom
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { defineHook, type HookContract, z } from "../../islands/runtime/define-hook.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import type { HookDefinition } from "../../islands/runtime/types.ts";
import { contract as tooltipContract } from "../../islands/tooltip/contract.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

afterAll(closeExamples);
afterEach(() => {
  document.body.innerHTML = "";
});

const flush = () => new Promise((r) => setTimeout(r, 0));

const badge = defineHook({
  hook: "badge",
  kind: "island",
  whenToUse: "A test island.",
  props: z.object({
    count: z.number(),
    size: z.enum(["small", "large"]).optional(),
    texts: z.object({ label: z.string() }),
  }),
  attributes: z.object({ "data-badge-mode": z.enum(["live", "still"]).optional() }),
});

function runtimeWith(contract: HookContract, name: string) {
  const mount = vi.fn(() => undefined);
  const hook: HookDefinition = {
    kind: "island",
    name,
    react: false,
    load: async () => ({ mount, contract }),
  };
  const report = vi.fn();
  return { mount, report, runtime: createRuntime([hook], document, report) };
}

describe("an island whose element breaks its contract", () => {
  it("keeps its server markup, is marked failed and logs one error naming the hook and the missing part", async () => {
    document.body.innerHTML = await exampleHtml("tooltip", "default");
    const details = document.querySelector<HTMLElement>('[data-island="tooltip"]') as HTMLElement;
    details.querySelector("[data-tooltip-text]")?.removeAttribute("data-tooltip-text");
    const before = details.outerHTML;
    const { mount, report, runtime } = runtimeWith(tooltipContract, "tooltip");
    await runtime.scan(document);
    expect(mount).not.toHaveBeenCalled();
    expect(details.getAttribute("data-island-state")).toBe("failed");
    expect(details.outerHTML.replace(' data-island-state="failed"', "")).toBe(before);
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[0]).toMatch(/"tooltip".*\[data-tooltip-text\]/);
  });

  it("is reported with the prop that is missing, of the wrong type or not one of the allowed values", async () => {
    const cases: Array<[string, RegExp]> = [
      ['{"texts":{"label":"x"}}', /data-props\.count is missing/],
      ['{"count":"3","texts":{"label":"x"}}', /data-props\.count is not number/],
      ['{"count":3,"size":"huge","texts":{"label":"x"}}', /data-props\.size is not one of small,large/],
      ['{"count":3,"texts":{}}', /data-props\.texts\.label is missing/],
      ["{count:3}", /data-props is not JSON/],
    ];
    for (const [props, message] of cases) {
      document.body.innerHTML = `<span data-island="badge" data-props='${props}'>3</span>`;
      const { mount, report, runtime } = runtimeWith(badge, "badge");
      await runtime.scan(document);
      expect(mount).not.toHaveBeenCalled();
      expect(report.mock.calls[0]?.[0], props).toMatch(message);
      expect(report.mock.calls[0]?.[0]).toContain('"badge"');
    }
  });

  it("is reported with an attribute value it does not know", async () => {
    document.body.innerHTML = `<span data-island="badge" data-badge-mode="loud" data-props='{"count":1,"texts":{"label":"x"}}'>1</span>`;
    const { report, runtime } = runtimeWith(badge, "badge");
    await runtime.scan(document);
    expect(report.mock.calls[0]?.[0]).toMatch(/attribute data-badge-mode="loud" is not one of live,still/);
  });

  it("mounts when the element keeps its contract", async () => {
    document.body.innerHTML = `<span data-island="badge" data-props='{"count":1,"texts":{"label":"x"}}'>1</span>`;
    const { mount, report, runtime } = runtimeWith(badge, "badge");
    await runtime.scan(document);
    expect(report).not.toHaveBeenCalled();
    expect(mount).toHaveBeenCalledTimes(1);
  });
});

describe("an element that names an island the registry does not know", () => {
  it("is marked failed and reported once, naming the unknown hook", async () => {
    document.body.innerHTML = `<div data-island="toolip">uitleg</div>`;
    const { report, runtime } = runtimeWith(tooltipContract, "tooltip");
    await runtime.scan(document);
    await runtime.scan(document);
    await flush();
    expect(document.querySelector("div")?.getAttribute("data-island-state")).toBe("failed");
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[0]).toContain('unknown island "toolip"');
  });
});
