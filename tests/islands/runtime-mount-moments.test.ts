// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { registry } from "../../islands/registry.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import type { HookDefinition, MountMoment } from "../../islands/runtime/types.ts";

const flush = () => new Promise((r) => setTimeout(r, 0));

/** The browser's idle callbacks, run when the test says the browser is idle. */
let idle: Array<() => void> = [];
function stubIdle() {
  idle = [];
  vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
  vi.stubGlobal("cancelIdleCallback", () => {});
}
const browserIdles = async () => {
  for (const callback of idle.splice(0)) callback();
  await flush();
};

afterEach(() => {
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
});

function island(mountWhen: MountMoment[]) {
  const mount = vi.fn(() => undefined);
  const hook: HookDefinition & { kind: "island" } = {
    kind: "island",
    name: "later",
    react: true,
    mountWhen,
    load: vi.fn(async () => ({ mount })),
  };
  return { hook, mount };
}

async function page(hook: HookDefinition) {
  document.body.innerHTML = `<div data-island="later" id="a"><button type="button">Kies</button></div>`;
  await createRuntime([hook], document, () => {}).scan(document);
  return document.getElementById("a") as HTMLElement;
}

describe("an island's loading moment", () => {
  it("on interaction or idle: downloads nothing at load, mounts when the browser is idle", async () => {
    stubIdle();
    const { hook, mount } = island(["interaction", "idle"]);
    const el = await page(hook);
    expect(hook.load).not.toHaveBeenCalled();
    expect(el.getAttribute("data-island-state")).toBe("waiting");
    await browserIdles();
    expect(hook.load).toHaveBeenCalledTimes(1);
    expect(mount).toHaveBeenCalledTimes(1);
    expect(el.getAttribute("data-island-state")).toBe("mounted");
  });

  it.each(["pointerdown", "focusin", "keydown"])(
    "on interaction: mounts once at the first %s inside it",
    async (type) => {
      stubIdle();
      const { hook, mount } = island(["interaction", "idle"]);
      const el = await page(hook);
      el.querySelector("button")?.dispatchEvent(new Event(type, { bubbles: true }));
      await flush();
      expect(mount).toHaveBeenCalledTimes(1);
      // The idle moment that follows, or a second touch, mounts nothing again.
      el.querySelector("button")?.dispatchEvent(new Event(type, { bubbles: true }));
      await browserIdles();
      expect(mount).toHaveBeenCalledTimes(1);
    },
  );

  it("on interaction only: an idle browser does not mount it", async () => {
    stubIdle();
    const { hook } = island(["interaction"]);
    await page(hook);
    await browserIdles();
    expect(hook.load).not.toHaveBeenCalled();
  });

  it("idle without requestIdleCallback still comes, after load", async () => {
    const { hook, mount } = island(["idle"]);
    await page(hook);
    expect(mount).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(mount).toHaveBeenCalledTimes(1));
  });

  it("the delivery-times island waits for a touch or an idle moment; the 360 viewer for the viewport", () => {
    const byName = new Map(registry.map((hook) => [hook.name, hook]));
    expect(byName.get("delivery-times")).toMatchObject({ mountWhen: ["interaction", "idle"] });
    expect(byName.get("viewer360")).toMatchObject({ nearViewport: "250px" });
  });
});
