/**
 * What a shopper chose on a page (options, the open tab or FAQ item, the carousel slide),
 * kept in the current history entry so Back and Forward bring it back. Each island owns one
 * key under a shared object; writes merge, never push an entry, and are batched into one
 * replaceState per quiet moment because browsers refuse more than about 100 calls in 10 s
 * (Safari throws, Chrome ignores them).
 */
const stateKey = "fotohoek";
const writeDelayMs = 150;

type PageState = Record<string, unknown>;

let pending: PageState | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let pendingView: Window | undefined;

function kept(view: Window): PageState {
  const state = view.history.state as Record<string, unknown> | null;
  const ours = state?.[stateKey];
  return ours && typeof ours === "object" ? (ours as PageState) : {};
}

function flush(): void {
  const view = pendingView;
  if (timer) clearTimeout(timer);
  timer = undefined;
  if (!view || !pending) return;
  const state = (view.history.state as Record<string, unknown> | null) ?? {};
  const next = { ...state, [stateKey]: { ...kept(view), ...pending } };
  pending = undefined;
  try {
    view.history.replaceState(next, "");
  } catch {
    // Over the browser's limit or a state it cannot clone: the choice is simply not kept.
  }
}

/** The value an island stored under `key` for this history entry, if any. */
export function readPageState<T>(key: string, view: Window = window): T | undefined {
  if (pending && pendingView === view && key in pending) return pending[key] as T;
  return kept(view)[key] as T | undefined;
}

/** Stores `value` under `key` in this history entry (soon, merged with the other islands' keys). */
export function writePageState(key: string, value: unknown, view: Window = window): void {
  if (pendingView && pendingView !== view) flush();
  pendingView = view;
  pending = { ...pending, [key]: value };
  if (timer) clearTimeout(timer);
  timer = setTimeout(flush, writeDelayMs);
  // Leaving the page must not lose the last choice: write it before the entry is left.
  view.addEventListener("pagehide", flush, { once: true });
}

/** Writes what is pending now; for tests and for code that is about to navigate. */
export function flushPageState(): void {
  flush();
}
