import { cartStore } from "../cart/cart-store.ts";
import { type PluralTexts, pageLang, pluralText, readTexts } from "../runtime/texts.ts";

/**
 * The header's item count. The server renders the count; this island only follows
 * changes that other islands make, so it needs no React and costs every page little.
 */
export function mount(element: HTMLElement): () => void {
  const texts = readTexts<PluralTexts>(element);
  const lang = pageLang(element);
  const initial = Number(element.dataset.count);
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
