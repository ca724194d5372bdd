import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";

/**
 * Chromium driven over the DevTools protocol through a pipe, attached to its page through
 * the tab target. Playwright attaches to pages directly, and Chromium disables prerendering
 * for a page DevTools attaches to that way (PrerenderingDisabledByDevTools); through the tab
 * target it prerenders as for a shopper. Also keeps the back/forward cache on (Playwright
 * passes --disable-back-forward-cache). Used by the prerender journey and bench:navigation.
 */
export interface CdpSession {
  /**
   * Sends a command and resolves with its answer. Rejects, naming the command, when no answer
   * comes within `timeoutMs` (15 s unless given), or when the session ends first: Chromium
   * never answers a command that was under way in a page it swaps out (a prerendered page's
   * activation detaches the old page's session), so without this such a wait never ends.
   */
  send<T = Record<string, unknown>>(
    method: string,
    params?: Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<T>;
  on(method: string, listener: (params: Record<string, unknown>) => void): void;
}

export interface PipeBrowser {
  /** A new tab, attached through its tab target; its page session. */
  newPage(): Promise<CdpSession>;
  close(): Promise<void>;
}

/** Commands that set the page's device, network or media; a prerendered page gets them too. */
const emulated = new Set([
  "Emulation.setDeviceMetricsOverride",
  "Emulation.setCPUThrottlingRate",
  "Emulation.setEmulatedMedia",
  "Network.enable",
  "Network.emulateNetworkConditions",
  "Network.setCacheDisabled",
]);

/** How long a command may go unanswered unless its caller says otherwise. */
const commandTimeoutMs = 15_000;

/** Rejects with `message` unless `promise` settles within `timeoutMs`. */
function within<T>(promise: Promise<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export async function launchPipeBrowser(
  executablePath: string,
  extraArgs: string[] = [],
): Promise<PipeBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "shop-cdp-"));
  const child: ChildProcess = spawn(
    executablePath,
    [
      "--headless=new",
      "--remote-debugging-pipe",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
      ...extraArgs,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] },
  );
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  let nextId = 1;
  /** Commands awaiting their answer, with the session they went to ("" for the browser). */
  const pending = new Map<
    number,
    { sessionId: string; method: string; resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();
  const failPending = (which: (sessionId: string) => boolean, why: string) => {
    for (const [id, waiter] of pending)
      if (which(waiter.sessionId)) {
        pending.delete(id);
        waiter.reject(new Error(`${waiter.method}: ${why}`));
      }
  };
  const listeners = new Map<string, Array<(params: Record<string, unknown>) => void>>();
  const dispatchers: Array<{
    sessions: Set<string>;
    method: string;
    listener: (params: Record<string, unknown>) => void;
  }> = [];
  let exited = false;
  child.once("exit", () => {
    exited = true;
    failPending(() => true, "Chromium exited before it answered");
  });
  let buffer = "";
  output.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    let end = buffer.indexOf("\0");
    while (end !== -1) {
      const message = JSON.parse(buffer.slice(0, end)) as {
        id?: number;
        method?: string;
        params?: Record<string, unknown>;
        result?: unknown;
        error?: { message: string };
        sessionId?: string;
      };
      buffer = buffer.slice(end + 1);
      end = buffer.indexOf("\0");
      if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(`${waiter.method}: ${message.error.message}`));
        else waiter?.resolve(message.result);
      } else if (message.method) {
        if (message.method === "Target.detachedFromTarget") {
          const ended = message.params?.sessionId as string;
          failPending((sessionId) => sessionId === ended, "the page's session ended before it answered");
        }
        for (const listener of listeners.get(`${message.sessionId ?? ""} ${message.method}`) ?? [])
          listener(message.params ?? {});
        for (const d of dispatchers)
          if (d.method === message.method && message.sessionId && d.sessions.has(message.sessionId))
            d.listener(message.params ?? {});
      }
    }
  });
  const session = (sessionId = ""): CdpSession => ({
    send<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = commandTimeoutMs) {
      if (exited) return Promise.reject(new Error(`${method}: Chromium has exited`));
      const id = nextId++;
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
      const answer = new Promise<T>((resolve, reject) =>
        pending.set(id, { sessionId, method, resolve: resolve as (v: unknown) => void, reject }),
      );
      return within(answer, timeoutMs, `${method}: no answer within ${timeoutMs} ms`).finally(() =>
        pending.delete(id),
      );
    },
    on(method, listener) {
      const key = `${sessionId} ${method}`;
      listeners.set(key, [...(listeners.get(key) ?? []), listener]);
    },
  });
  const browser = session();

  return {
    async newPage() {
      const { targetId } = await browser
        .send<{ targetId: string }>("Target.createTarget", {
          url: "about:blank",
          forTab: true,
        })
        .catch(() => browser.send<{ targetId: string }>("Target.createTarget", { url: "about:blank" }));
      const { targetInfos } = await browser.send<{
        targetInfos: Array<{ targetId: string; type: string; parentId?: string }>;
      }>("Target.getTargets", { filter: [{}] });
      const info = targetInfos.find((t) => t.targetId === targetId);
      const tabId =
        info?.type === "tab"
          ? targetId
          : (info?.parentId ?? targetInfos.find((t) => t.type === "tab")?.targetId);
      if (!tabId) throw new Error("no tab target");
      const { sessionId: tabSession } = await browser.send<{ sessionId: string }>("Target.attachToTarget", {
        targetId: tabId,
        flatten: true,
      });
      const tab = session(tabSession);
      // The page's sessions: its own, then each prerendered page's. A prerendered page becomes
      // the page when it is activated: Chromium then drops its "prerender" subtype and
      // detaches the old page's session.
      let current: string | undefined;
      const sessions = new Set<string>();
      /** The device and network the page emulates, the last call per method, in order. */
      const emulation = new Map<string, Record<string, unknown> | undefined>();
      const prerendered = new Map<string, string>(); // targetId → sessionId
      const firstPage = new Promise<void>((resolve) => {
        tab.on("Target.attachedToTarget", (params) => {
          const target = params.targetInfo as { type: string; targetId: string; subtype?: string };
          if (target.type !== "page") return;
          const id = params.sessionId as string;
          sessions.add(id);
          if (target.subtype === "prerender") {
            prerendered.set(target.targetId, id);
            // The same device for the page opened ahead: DevTools' emulation stays with the
            // session it was sent to (a prerender at 375 px with a pixel ratio of 2 was laid
            // out at ratio 1 and again on activation, unthrottled).
            const ahead = session(id);
            for (const [method, params] of emulation) void ahead.send(method, params).catch(() => {});
          } else if (!current) {
            current = id;
            resolve();
          }
        });
      });
      tab.on("Target.targetInfoChanged", (params) => {
        const target = params.targetInfo as { targetId: string; subtype?: string };
        const id = prerendered.get(target.targetId);
        if (id && target.subtype !== "prerender") {
          prerendered.delete(target.targetId);
          current = id;
        }
      });
      tab.on("Target.detachedFromTarget", (params) => {
        const id = params.sessionId as string;
        sessions.delete(id);
        for (const [targetId, sessionId] of prerendered) if (sessionId === id) prerendered.delete(targetId);
        // Activation detaches the old page before it reports the new one's change.
        if (id === current) current = [...prerendered.values()].at(-1) ?? [...sessions].at(-1);
      });
      await tab.send("Target.setAutoAttach", {
        autoAttach: true,
        waitForDebuggerOnStart: false,
        flatten: true,
      });
      await within(firstPage, commandTimeoutMs, "the new tab's page was not attached within 15 s");
      const page: CdpSession = {
        send: (method, params, timeoutMs) => {
          if (emulated.has(method)) {
            emulation.delete(method);
            emulation.set(method, params);
          }
          return session(current).send(method, params, timeoutMs);
        },
        on: (method, listener) => {
          dispatchers.push({ sessions, method, listener });
        },
      };
      await page.send("Page.enable");
      await page.send("Runtime.enable");
      return page;
    },
    async close() {
      await browser.send("Browser.close", {}, 5_000).catch(() => {});
      const exit = new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve(undefined);
        else child.once("exit", resolve);
      });
      await within(exit, 5_000, "Chromium did not exit").catch(() => {
        child.kill("SIGKILL");
        return exit;
      });
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Runs an expression in the page and returns its value (awaiting a promise, at most `timeoutMs`). */
export async function evaluate<T>(page: CdpSession, expression: string, timeoutMs?: number): Promise<T> {
  const { result, exceptionDetails } = await page.send<{
    result: { value: T };
    exceptionDetails?: { text: string; exception?: { description?: string } };
  }>("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true }, timeoutMs);
  if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
  return result.value;
}

/** The centre of the first element matching `selector`, scrolled into view; undefined when none. */
async function centreOf(page: CdpSession, selector: string): Promise<{ x: number; y: number }> {
  const box = await evaluate<{ x: number; y: number } | null>(
    page,
    `(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) return null;
      el.scrollIntoView({ block: "center" }); const r = el.getBoundingClientRect();
      return { x: r.x + Math.min(r.width / 2, 20), y: r.y + r.height / 2 }; })()`,
  );
  if (!box) throw new Error(`nothing matches ${selector}`);
  return box;
}

/** Moves the mouse over the element, as a shopper about to choose it. */
export async function hover(page: CdpSession, selector: string): Promise<void> {
  const { x, y } = await centreOf(page, selector);
  await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
}

/** Presses and releases the mouse on the element. */
export async function click(page: CdpSession, selector: string): Promise<void> {
  const { x, y } = await centreOf(page, selector);
  await page.send("Input.dispatchMouseEvent", { type: "mouseMoved", x, y });
  await page.send("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button: "left", clickCount: 1 });
  await page.send("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button: "left", clickCount: 1 });
}

/**
 * Polls `expression` in the page until it is truthy (a page swapped by activation included).
 * Each try is bounded by what is left of `timeoutMs`; the error names `what` was awaited and
 * the last answer, so a failed journey says at which step it stopped.
 */
export async function waitFor(
  page: CdpSession,
  what: string,
  expression: string,
  timeoutMs = 10_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last = "false";
  for (;;) {
    const left = until - Date.now();
    if (left <= 0)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${expression}); last: ${last}`);
    const ok = await evaluate<boolean>(page, `Boolean(${expression})`, left).catch((error: Error) => {
      last = error.message;
      return false;
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How the page now shown arrived: activation, LCP from activation, first paint, all in ms. */
export interface Arrival {
  path: string;
  activationStart: number;
  deliveryType: string;
  lcpFromActivation: number;
  firstPaintEpoch: number;
}

/**
 * Reads how the page now shown arrived, once it has reported its largest contentful paint.
 * Rejects when no such entry comes within `timeoutMs` (a page still hidden reports none).
 */
export function arrival(page: CdpSession, timeoutMs = 10_000): Promise<Arrival> {
  return evaluate<Arrival>(
    page,
    `new Promise((resolve, reject) => {
      setTimeout(() => reject(new Error("no largest-contentful-paint entry within ${timeoutMs} ms on " + location.pathname)), ${timeoutMs});
      const nav = performance.getEntriesByType("navigation")[0];
      const activation = nav.activationStart || 0;
      new PerformanceObserver((list) => {
        const entries = list.getEntries();
        const lcp = entries[entries.length - 1].startTime;
        const paint = performance.getEntriesByName("first-contentful-paint")[0];
        const shown = Math.max(paint ? paint.startTime : lcp, activation);
        resolve({ path: location.pathname, activationStart: activation, deliveryType: nav.deliveryType || "",
          lcpFromActivation: Math.max(0, lcp - activation), firstPaintEpoch: performance.timeOrigin + shown });
      }).observe({ type: "largest-contentful-paint", buffered: true });
    })`,
    timeoutMs + 1_000,
  );
}
