import { cartStore } from "../cart/cart-store.ts";
import { pageLang, pluralText } from "../runtime/lang.ts";
import { readProps } from "../runtime/props.ts";
import type { CartCountProps } from "./contract.ts";

export { contract } from "./contract.ts";

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
  return cartStore.subscribe((state, previous) => {
    if (state.count !== previous.count) render(state.count);
  });
}
