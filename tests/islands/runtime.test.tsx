// @vitest-environment happy-dom
import { screen } from "@testing-library/dom";
import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mountReact } from "../../islands/react/mount.tsx";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import type { HookDefinition } from "../../islands/runtime/types.ts";

afterEach(() => {
  document.body.innerHTML = "";
});

function island(name: string, mount: (el: HTMLElement) => undefined | (() => void)): HookDefinition {
  return { kind: "island", name, react: false, load: vi.fn(async () => ({ mount: vi.fn(mount) })) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("the island runtime", () => {
  it("mounts an island on each element that asks for it, importing its module once", async () => {
    document.body.innerHTML = `<p data-island="greet">server</p><p data-island="greet">server</p>`;
    const hook = island("greet", (el) => {
      el.textContent = "enhanced";
      return undefined;
    });
    await createRuntime([hook], document, () => {}).scan(document);
    expect(hook.load).toHaveBeenCalledTimes(1);
    expect([...document.querySelectorAll("p")].map((p) => p.textContent)).toEqual(["enhanced", "enhanced"]);
    expect(document.querySelector("p")?.getAttribute("data-island-state")).toBe("mounted");
  });

  it("never mounts the same element twice, however often it scans", async () => {
    document.body.innerHTML = `<div data-island="count"></div>`;
    const mount = vi.fn(() => undefined);
    const hook: HookDefinition = {
      kind: "island",
      name: "count",
      react: false,
      load: async () => ({ mount }),
    };
    const runtime = createRuntime([hook], document, () => {});
    await Promise.all([runtime.scan(document), runtime.scan(document)]);
    await runtime.scan(document.body);
    expect(mount).toHaveBeenCalledTimes(1);
  });

  it("loads nothing for hooks the page does not have", async () => {
    document.body.innerHTML = `<p>plain page</p>`;
    const hook = island("absent", () => undefined);
    const behaviour: HookDefinition = {
      kind: "behaviour",
      name: "b",
      selector: "[data-b]",
      load: vi.fn(async () => ({ start: () => {} })),
    };
    await createRuntime([hook, behaviour], document, () => {}).scan(document);
    expect(hook.load).not.toHaveBeenCalled();
    expect(behaviour.load).not.toHaveBeenCalled();
  });

  it("starts a behaviour once, however many of its hooks there are", async () => {
    document.body.innerHTML = `<a data-b></a><a data-b></a>`;
    const start = vi.fn();
    const behaviour: HookDefinition = {
      kind: "behaviour",
      name: "b",
      selector: "[data-b]",
      load: async () => ({ start }),
    };
    const runtime = createRuntime([behaviour], document, () => {});
    await runtime.scan(document);
    await runtime.scan(document);
    expect(start).toHaveBeenCalledTimes(1);
    expect(start).toHaveBeenCalledWith(document);
  });

  it("starts hooks inside HTML inserted later, as an ajax swap does", async () => {
    const hook = island("late", (el) => {
      el.textContent = "enhanced";
      return undefined;
    });
    const runtime = createRuntime([hook], document, () => {});
    await runtime.start();
    const region = document.createElement("div");
    region.innerHTML = `<section><span data-island="late">server</span></section>`;
    document.body.append(region);
    await vi.waitFor(() => expect(region.textContent).toBe("enhanced"));
    runtime.stop();
  });

  describe("when a module fails", () => {
    it("reports a module that cannot load and leaves the server markup in place", async () => {
      document.body.innerHTML = `<div data-island="broken">server markup</div>`;
      const report = vi.fn();
      const hook: HookDefinition = {
        kind: "island",
        name: "broken",
        react: false,
        load: () => Promise.reject(new Error("chunk 404")),
      };
      await createRuntime([hook], document, report).scan(document);
      expect(report).toHaveBeenCalledWith('[islands] could not load "broken"', expect.any(Error));
      expect(document.body.textContent).toBe("server markup");
      expect(document.querySelector("div")?.getAttribute("data-island-state")).toBe("failed");
    });

    it("reports an island that throws and still mounts the others", async () => {
      document.body.innerHTML = `<div data-island="throws">a</div><div data-island="fine">b</div>`;
      const report = vi.fn();
      const throws = island("throws", () => {
        throw new Error("bad props");
      });
      const fine = island("fine", (el) => {
        el.textContent = "ok";
        return undefined;
      });
      await createRuntime([throws, fine], document, report).scan(document);
      expect(report).toHaveBeenCalledWith('[islands] island "throws" failed to mount', expect.any(Error));
      expect(document.body.textContent).toBe("aok");
    });

    it("reports a behaviour that throws on start", async () => {
      document.body.innerHTML = `<a data-b></a>`;
      const report = vi.fn();
      const behaviour: HookDefinition = {
        kind: "behaviour",
        name: "b",
        selector: "[data-b]",
        load: async () => ({
          start: () => {
            throw new Error("no");
          },
        }),
      };
      await createRuntime([behaviour], document, report).scan(document);
      expect(report).toHaveBeenCalledWith('[islands] behaviour "b" failed to start', expect.any(Error));
    });
  });
});

describe("a React island", () => {
  function Greeting({ name }: { name: string }) {
    return <p>Hallo {name}</p>;
  }

  it("renders with props from its JSON script child, in the element's own box", async () => {
    document.body.innerHTML = `<div id="box" data-island="greeting"><p>Hallo (server)</p><script type="application/json" data-props>{"name":"Anna"}</script></div>`;
    const box = document.getElementById("box") as HTMLElement;
    let unmount: () => void = () => {};
    await act(async () => {
      unmount = mountReact(box, Greeting);
    });
    expect(screen.getByText("Hallo Anna").parentElement).toBe(box);
    expect(box.querySelector("script")).toBeNull();
    act(() => unmount());
    expect(box.textContent).toBe("");
  });

  it("reads props from a data-props attribute as well", async () => {
    document.body.innerHTML = `<div id="box" data-props='{"name":"Jan"}'></div>`;
    await act(async () => {
      mountReact(document.getElementById("box") as HTMLElement, Greeting);
    });
    expect(screen.getByText("Hallo Jan")).toBeTruthy();
    await flush();
  });
});
