import type { Orientation, Product, ProductSize } from "./catalogue.ts";

/**
 * Which orientation × size a product page shows, decided from what the address asks for.
 * Pure and browser-safe: the product-options island picks the nearest size with the same
 * function when the shopper changes the orientation, so both sides always agree.
 */

/** What option logic needs of a product; the browser gets just this much. */
export interface ProductOptions {
  sizes: readonly ProductSize[];
  recommended: Pick<Product["recommended"], "orientation" | "size">;
}

export interface OptionRequest {
  /** An orientation the shop knows, "invalid" for a value it does not, or absent. */
  orientation?: Orientation | "invalid";
  /** The size as written in the address (e.g. "30x21"), or absent. */
  size?: string;
}

export type OptionResolution =
  /** The address names an offered combination, or nothing: render it (or the recommended one). */
  | { kind: "show"; choice: ProductSize; recommended: boolean }
  /** Each value exists, but not together (or one is missing): redirect to the nearest combination. */
  | { kind: "redirect"; choice: ProductSize }
  /** A value is unknown or malformed: render the recommended option with a notice. */
  | { kind: "notice"; choice: ProductSize };

const sizePattern = /^([1-9][0-9]{0,3})x([1-9][0-9]{0,3})$/;

export function parseSize(id: string): { width: number; height: number } | undefined {
  const match = sizePattern.exec(id);
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
}

export function recommendedChoice(product: ProductOptions): ProductSize {
  const { orientation, size } = product.recommended;
  // parseCatalogue guarantees the recommended option exists
  return product.sizes.find((s) => s.orientation === orientation && s.id === size) as ProductSize;
}

export function orientationsOf(product: ProductOptions): Orientation[] {
  const seen: Orientation[] = [];
  for (const s of product.sizes) if (!seen.includes(s.orientation)) seen.push(s.orientation);
  return seen;
}

export function sizesIn(product: ProductOptions, orientation: Orientation): ProductSize[] {
  return product.sizes.filter((s) => s.orientation === orientation);
}

/**
 * The offered size closest to a wished one: the same measurements first, then the same
 * measurements turned a quarter (21x30 for 30x21, what a shopper who switches from
 * landscape to portrait means), then the nearest surface area. Ties go to the recommended
 * size, then to catalogue order, so the answer never depends on chance.
 */
export function nearestSize(
  product: ProductOptions,
  orientation: Orientation | undefined,
  wished: string | undefined,
): ProductSize {
  const recommended = recommendedChoice(product);
  const inOrientation = orientation ? sizesIn(product, orientation) : [];
  const candidates = inOrientation.length > 0 ? inOrientation : product.sizes;
  const target = parseSize(wished ?? "") ?? parseSize(recommended.id);
  if (!target) return candidates[0] as ProductSize;

  const score = (size: ProductSize): number => {
    const own = parseSize(size.id);
    if (!own) return Number.POSITIVE_INFINITY;
    if (own.width === target.width && own.height === target.height) return 0;
    if (own.width === target.height && own.height === target.width) return 1;
    return 2 + Math.abs(own.width * own.height - target.width * target.height);
  };
  let best = candidates[0] as ProductSize;
  let bestScore = score(best);
  for (const size of candidates.slice(1)) {
    const s = score(size);
    if (s < bestScore || (s === bestScore && size === recommended)) {
      best = size;
      bestScore = s;
    }
  }
  return best;
}

export function resolveOptions(product: ProductOptions, request: OptionRequest): OptionResolution {
  const recommended = recommendedChoice(product);
  const { orientation, size } = request;
  if (orientation === undefined && size === undefined) {
    return { kind: "show", choice: recommended, recommended: true };
  }
  if (orientation === "invalid") return { kind: "notice", choice: recommended };
  const offersSize = size === undefined || product.sizes.some((s) => s.id === size);
  if (!offersSize) return { kind: "notice", choice: recommended };
  const offersOrientation = orientation === undefined || orientationsOf(product).includes(orientation);

  const exact = product.sizes.find((s) => s.orientation === orientation && s.id === size);
  if (exact) return { kind: "show", choice: exact, recommended: exact === recommended };

  if (orientation === undefined) {
    // Only a size: it exists (checked above), in the first orientation that offers it.
    return { kind: "redirect", choice: product.sizes.find((s) => s.id === size) as ProductSize };
  }
  // Only an orientation, or a size that exists in another orientation: the nearest offered size.
  return {
    kind: "redirect",
    choice: nearestSize(product, offersOrientation ? orientation : undefined, size ?? recommended.id),
  };
}

/** The surcharge-free unit price and, where offered, the rush price, in cents. */
export function pricesOf(product: Product, choice: ProductSize): { unitCents: number; rushCents?: number } {
  const rush = product.production.rush;
  return rush
    ? { unitCents: choice.priceCents, rushCents: choice.priceCents + rush.surchargeCents }
    : { unitCents: choice.priceCents };
}
