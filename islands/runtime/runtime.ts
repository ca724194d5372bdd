import { type HookDefinition, islandSelector } from "./types.ts";

export interface Runtime {
  /** Finds hooks in (part of) the document and starts what they need. */
  scan(root: ParentNode): Promise<void>;
  /** Scans the document now and every subtree inserted later (ajax swaps). */
  start(): Promise<void>;
  stop(): void;
}

type Loaded<T> = Promise<T | undefined>;

export const mountedAttribute = "data-island-state";

/**
 * The island runtime: imports each hook's module once, starts behaviours once and
 * mounts each island element once. A module that fails to load or throws is reported
 * and leaves the server's markup as it was, which works on its own.
 */
export function createRuntime(
  registry: readonly HookDefinition[],
  doc: Document = document,
  report: (message: string, error: unknown) => void = (m, e) => console.error(m, e),
): Runtime {
  const modules = new Map<string, Loaded<unknown>>();
  const started = new Set<string>();
  const mounted = new WeakSet<Element>();
  let observer: MutationObserver | undefined;
  const watchers = new Map<string, IntersectionObserver>();
  const waiting = new WeakSet<Element>();

  function load<T>(hook: HookDefinition): Loaded<T> {
    let pending = modules.get(hook.name) as Loaded<T> | undefined;
    if (!pending) {
      pending = (hook.load() as Promise<T>).catch((error: unknown) => {
        report(`[islands] could not load "${hook.name}"`, error);
        return undefined;
      });
      modules.set(hook.name, pending);
    }
    return pending;
  }

  async function startBehaviour(hook: Extract<HookDefinition, { kind: "behaviour" }>): Promise<void> {
    if (started.has(hook.name)) return;
    started.add(hook.name);
    const module = await load<Awaited<ReturnType<typeof hook.load>>>(hook);
    if (module?.contract) {
      for (const el of matching(doc, hook.selector)) {
        const problem = module.contract.problem(el);
        if (problem) report(`[islands] "${hook.name}" breaks its contract: ${problem}`, el);
      }
    }
    try {
      module?.start(doc);
    } catch (error) {
      report(`[islands] behaviour "${hook.name}" failed to start`, error);
    }
  }

  async function mountIslands(
    hook: Extract<HookDefinition, { kind: "island" }>,
    elements: HTMLElement[],
  ): Promise<void> {
    const fresh = elements.filter((el) => !mounted.has(el));
    if (fresh.length === 0) return;
    for (const el of fresh) mounted.add(el);
    const module = await load<Awaited<ReturnType<typeof hook.load>>>(hook);
    for (const el of fresh) {
      if (!module) {
        el.setAttribute(mountedAttribute, "failed");
        continue;
      }
      const problem = module.contract?.problem(el);
      if (problem) {
        // The server's markup stays: it works without the island.
        el.setAttribute(mountedAttribute, "failed");
        report(`[islands] "${hook.name}" breaks its contract: ${problem}`, el);
        continue;
      }
      try {
        module.mount(el);
        el.setAttribute(mountedAttribute, "mounted");
      } catch (error) {
        el.setAttribute(mountedAttribute, "failed");
        report(`[islands] island "${hook.name}" failed to mount`, error);
      }
    }
  }

  /** Defers mounting until the element nears the viewport; without IntersectionObserver, mounts at once. */
  function mountWhenNear(hook: Extract<HookDefinition, { kind: "island" }>, elements: HTMLElement[]): void {
    const view = doc.defaultView;
    if (!hook.nearViewport || !view || !("IntersectionObserver" in view)) {
      void mountIslands(hook, elements);
      return;
    }
    // While the page is prerendered, before the shopper opens it, the browser runs no rendering
    // updates, so an IntersectionObserver reports nothing until activation: the island would
    // mount just as the page is first shown and replace its server markup after that first
    // paint (the 360 viewer's image, the product page's LCP element, painted a second time).
    // The layout is there already: the islands in or near the first screen mount now.
    const margin = hook.nearViewport;
    if ((doc as Document & { prerendering?: boolean }).prerendering) {
      const near = elements.filter((el) => !mounted.has(el) && nearFirstScreen(el, margin, view));
      if (near.length > 0) void mountIslands(hook, near);
      elements = elements.filter((el) => !near.includes(el));
    }
    let watcher = watchers.get(hook.name);
    if (!watcher) {
      watcher = new view.IntersectionObserver(
        (entries, self) => {
          const near = entries.filter((e) => e.isIntersecting).map((e) => e.target as HTMLElement);
          for (const el of near) self.unobserve(el);
          if (near.length > 0) void mountIslands(hook, near);
        },
        { rootMargin: margin },
      );
      watchers.set(hook.name, watcher);
    }
    for (const el of elements) {
      if (mounted.has(el) || waiting.has(el)) continue;
      waiting.add(el);
      el.setAttribute(mountedAttribute, "waiting");
      watcher.observe(el);
    }
  }

  /** Whether the element's box starts within the first screen plus the hook's margin (its first length). */
  function nearFirstScreen(el: HTMLElement, margin: string, view: Window): boolean {
    const extra = Number.parseFloat(margin) || 0;
    const box = el.getBoundingClientRect();
    return box.top < view.innerHeight + extra && box.bottom > -extra;
  }

  /** The events that count as a shopper's first touch of an island. */
  const interactionEvents = ["pointerdown", "focusin", "keydown", "touchstart"] as const;

  /**
   * Defers mounting to the first of the hook's moments (mountWhen): the browser's first idle
   * time, or the shopper's first press, focus or key inside the element. Without
   * requestIdleCallback, idle is a short timeout after load.
   */
  function mountAtMoment(hook: Extract<HookDefinition, { kind: "island" }>, elements: HTMLElement[]): void {
    const view = doc.defaultView;
    const moments = hook.mountWhen ?? [];
    for (const el of elements) {
      if (mounted.has(el) || waiting.has(el)) continue;
      waiting.add(el);
      el.setAttribute(mountedAttribute, "waiting");
      let done = false;
      const cancels: Array<() => void> = [];
      const go = () => {
        if (done) return;
        done = true;
        for (const cancel of cancels) cancel();
        void mountIslands(hook, [el]);
      };
      if (moments.includes("interaction")) {
        for (const type of interactionEvents) {
          el.addEventListener(type, go, { once: true, passive: true, capture: true });
          cancels.push(() => el.removeEventListener(type, go, { capture: true }));
        }
      }
      if (moments.includes("idle")) {
        if (view && "requestIdleCallback" in view) {
          const id = view.requestIdleCallback(go, { timeout: 5000 });
          cancels.push(() => view.cancelIdleCallback(id));
        } else {
          const id = setTimeout(go, 200);
          cancels.push(() => clearTimeout(id));
        }
      }
      if (moments.length === 0) go();
    }
  }

  function matching(root: ParentNode, selector: string): HTMLElement[] {
    const found = [...root.querySelectorAll<HTMLElement>(selector)];
    if (root instanceof Element && root.matches(selector)) found.unshift(root as HTMLElement);
    return found;
  }

  async function scan(root: ParentNode): Promise<void> {
    const work: Promise<void>[] = [];
    // Development only, like the contract checks: production pages stay within their budget.
    if (process.env.NODE_ENV !== "production")
      for (const el of matching(root, "[data-island]")) {
        const name = el.dataset.island;
        if (!registry.some((hook) => hook.name === name) && el.getAttribute(mountedAttribute) !== "failed") {
          el.setAttribute(mountedAttribute, "failed");
          report(`[islands] unknown island "${name}": no hook of that name in islands/registry.ts`, el);
        }
      }
    for (const hook of registry) {
      if (hook.kind === "behaviour") {
        if (!started.has(hook.name) && matching(root, hook.selector).length > 0)
          work.push(startBehaviour(hook));
      } else {
        const elements = matching(root, islandSelector(hook.name));
        if (elements.length === 0) continue;
        if (hook.nearViewport) mountWhenNear(hook, elements);
        else if (hook.mountWhen?.length) mountAtMoment(hook, elements);
        else work.push(mountIslands(hook, elements));
      }
    }
    await Promise.all(work);
  }

  return {
    scan,
    async start() {
      observer = new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (node.nodeType === 1) void scan(node as Element);
          }
        }
      });
      observer.observe(doc.documentElement, { childList: true, subtree: true });
      await scan(doc);
    },
    stop() {
      observer?.disconnect();
      for (const watcher of watchers.values()) watcher.disconnect();
    },
  };
}
