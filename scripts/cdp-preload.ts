import type { CdpSession } from "./cdp-pipe.ts";

/**
 * What Chromium itself reports about a page's speculative loads (the DevTools Preload domain):
 * which links the speculation rules made candidates, and where each prefetch and prerender
 * stands. Chromium may refuse or cancel a prerender (under memory pressure, too many at
 * once, a disallowed API); waiting for the state it reports, with its reason on failure,
 * replaces guessing with sleeps.
 */
export interface PreloadWatch {
  /** The addresses the page's rules currently make candidates, for prefetch or prerender. */
  candidates(): Array<{ action: string; url: string }>;
  /** Resolves once a candidate list has come that `accept` takes; rejects at the deadline. */
  candidatesMatching(
    what: string,
    accept: (list: Array<{ action: string; url: string }>) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  /** The prerender of `url` (absolute) as Chromium last reported it, its reason included. */
  prerender(url: string): Attempt | undefined;
  /** Resolves when the prerender of `url` reaches `status`; rejects on its failure, naming Chromium's reason. */
  prerenderReaches(url: string, status: "Ready" | "Success", timeoutMs?: number): Promise<void>;
  /** Resolves when the prefetch of `url` is Ready; rejects on its failure, naming Chromium's reason. */
  prefetchReady(url: string, timeoutMs?: number): Promise<void>;
}

/** One prefetch or prerender: its status (Pending, Running, Ready, Success, Failure) and why. */
export interface Attempt {
  status: string;
  /** Chromium's final status or failure reason, with a disallowed interface when it names one. */
  reason?: string;
}

type Listener = () => void;

const describe = (attempt: Attempt | undefined) =>
  attempt ? `${attempt.status}${attempt.reason ? ` (${attempt.reason})` : ""}` : "never reported";

/** Starts watching: call before the page loads, so its first reports are seen. */
export async function watchPreloading(page: CdpSession): Promise<PreloadWatch> {
  let candidates: Array<{ action: string; url: string }> = [];
  const prerenders = new Map<string, Attempt>();
  const prefetches = new Map<string, Attempt>();
  const listeners = new Set<Listener>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };

  page.on("Preload.preloadingAttemptSourcesUpdated", (params) => {
    const sources = params.preloadingAttemptSources as Array<{ key: { action: string; url: string } }>;
    candidates = sources.map((s) => ({ action: s.key.action, url: s.key.url }));
    changed();
  });
  page.on("Preload.prerenderStatusUpdated", (params) => {
    const key = params.key as { url: string };
    const reason = [params.prerenderStatus, params.disallowedMojoInterface].filter(Boolean).join(": ");
    prerenders.set(key.url, { status: params.status as string, ...(reason ? { reason } : {}) });
    changed();
  });
  page.on("Preload.prefetchStatusUpdated", (params) => {
    const key = params.key as { url: string };
    const reason = params.prefetchStatus as string | undefined;
    prefetches.set(key.url, { status: params.status as string, ...(reason ? { reason } : {}) });
    changed();
  });
  await page.send("Preload.enable");

  /** Settles when `check` says so after any report, or rejects with `what` at the deadline. */
  const until = (
    what: string,
    check: () => "done" | Error | undefined,
    last: () => string,
    timeoutMs: number,
  ) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(listener);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${last()}`));
      }, timeoutMs);
      const listener = () => {
        const outcome = check();
        if (!outcome) return;
        clearTimeout(timer);
        listeners.delete(listener);
        if (outcome === "done") resolve();
        else reject(outcome);
      };
      listeners.add(listener);
      listener();
    });

  const reaches = (
    kind: "prerender" | "prefetch",
    attempts: Map<string, Attempt>,
    url: string,
    status: string,
    timeoutMs: number,
  ) =>
    until(
      `Chromium to report the ${kind} of ${url} ${status}`,
      () => {
        const attempt = attempts.get(url);
        if (attempt?.status === status) return "done";
        if (attempt?.status === "Failure" || attempt?.status === "NotSupported")
          return new Error(`Chromium dropped the ${kind} of ${url}: ${describe(attempt)}`);
        return undefined;
      },
      () => describe(attempts.get(url)),
      timeoutMs,
    );

  return {
    candidates: () => candidates,
    candidatesMatching: (what, accept, timeoutMs = 10_000) =>
      until(
        what,
        () => (accept(candidates) ? "done" : undefined),
        () => JSON.stringify(candidates),
        timeoutMs,
      ),
    prerender: (url) => prerenders.get(url),
    prerenderReaches: (url, status, timeoutMs = 20_000) =>
      reaches("prerender", prerenders, url, status, timeoutMs),
    prefetchReady: (url, timeoutMs = 10_000) => reaches("prefetch", prefetches, url, "Ready", timeoutMs),
  };
}
