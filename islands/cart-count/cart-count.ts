import { cartStore } from "../cart/cart-store.ts";
import { pageLang, pluralText } from "../runtime/lang.ts";
import { readProps } from "../runtime/props.ts";
import type { CartCountProps } from "./contract.ts";

export { contract } from "./contract.ts";

/** The server's current count (server/routes/cart-count.ts). */
export const cartCountEndpoint = "/api/cart-count";

/**
 * A page restored from the back/forward cache shows the count it had when the shopper left
 * it; the cart may have changed since (another tab, a later page). Ask the server again.
 * A failed answer leaves the count as it was: the badge is a nicety.
 */
let asking: Promise<void> | undefined;
function refreshFromServer(view: Window): Promise<void> {
  // Every badge on the page hears the same pageshow: one question serves them all.
  asking ??= ask(view).finally(() => {
    asking = undefined;
  });
  return asking;
}

async function ask(view: Window): Promise<void> {
  try {
    const response = await view.fetch(cartCountEndpoint, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return;
    const { count } = (await response.json()) as { count?: unknown };
    if (typeof count === "number" && Number.isFinite(count)) cartStore.getState().setCount(count);
  } catch {
    // Offline or refused: the restored count stays.
  }
}

/**
 * The header's item count. The server renders the count; this island only follows
 * changes that other islands make, so it needs no React and costs every page little.
 */
export function mount(element: HTMLElement): () => void {
  const { count: initial, texts } = readProps<CartCountProps>(element);
  const lang = pageLang(element);
  if (Number.isFinite(initial)) cartStore.getState().setCount(initial);
  const number = new Intl.NumberFormat(lang);

  const render = (count: number) => {
    element.dataset.count = String(count);
    element.textContent = pluralText(texts, count, lang, (n) => number.format(n));
  };
  const view = element.ownerDocument.defaultView;
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted && view) void refreshFromServer(view);
  };
  view?.addEventListener("pageshow", onPageShow);
  const unsubscribe = cartStore.subscribe((state, previous) => {
    if (state.count !== previous.count) render(state.count);
  });
  return () => {
    view?.removeEventListener("pageshow", onPageShow);
    unsubscribe();
  };
}
