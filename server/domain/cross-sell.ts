import type { Catalogue, Product, ProductSize } from "./catalogue.ts";
import { recommendedChoice } from "./product-options.ts";

export interface CrossSellTip {
  product: Product;
  /** The option the tip's add button puts in the cart: the recommended one, else the first orderable. */
  choice: ProductSize;
}

/** More than a shopper reads in a tips block; the carousel shows the rest on demand. */
export const maxTips = 6;

/**
 * Suggestions for the cart's tips block. Products already in the cart are left out;
 * products from categories the cart does not have yet come first (a photo book goes
 * well with prints and wall decoration), taking turns between those categories so the
 * first tips in view differ in kind; then the other products of the categories it has.
 * Always in catalogue order, so the tips never change by chance. An empty cart gets no
 * tips: its page points at the whole range instead.
 */
export function crossSellTips(
  catalogue: Catalogue,
  productIdsInCart: readonly string[],
  limit = maxTips,
): CrossSellTip[] {
  if (productIdsInCart.length === 0) return [];
  const inCart = new Set(productIdsInCart);
  const categoriesInCart = new Set(catalogue.products.filter((p) => inCart.has(p.id)).map((p) => p.category));
  const candidates = catalogue.products.flatMap((product) => {
    if (inCart.has(product.id)) return [];
    const recommended = recommendedChoice(product);
    const choice = recommended.available ? recommended : product.sizes.find((s) => s.available);
    return choice ? [{ product, choice }] : [];
  });
  const complementary = candidates.filter((c) => !categoriesInCart.has(c.product.category));
  const alike = candidates.filter((c) => categoriesInCart.has(c.product.category));
  return [...takeTurns(complementary), ...takeTurns(alike)].slice(0, limit);
}

/** One of each category in turn: books, prints, wall, books, prints, wall, … */
function takeTurns(tips: CrossSellTip[]): CrossSellTip[] {
  const queues = new Map<string, CrossSellTip[]>();
  for (const tip of tips) {
    const queue = queues.get(tip.product.category);
    if (queue) queue.push(tip);
    else queues.set(tip.product.category, [tip]);
  }
  const out: CrossSellTip[] = [];
  while (out.length < tips.length) {
    for (const queue of queues.values()) {
      const next = queue.shift();
      if (next) out.push(next);
    }
  }
  return out;
}
