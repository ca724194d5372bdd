// How the bench's crowd asks for a page: each shopper once (the cold column: a page made for
// a shopper the server has never answered on it), or drawn at random with repeats (a crowd
// where some come back). Pure, so the promise "each shopper once" has a test of its own.

/** A source of requests: the next one to send, or undefined when there is none left. */
export type RequestSource<T> = () => T | undefined;

/**
 * Every item exactly once, in an order shuffled with `random` (Fisher–Yates), then
 * undefined for good: a connection that asks after the last gets nothing to send.
 */
export function eachOnce<T>(items: readonly T[], random: () => number = Math.random): RequestSource<T> {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as T, order[i] as T];
  }
  let next = 0;
  return () => (next < order.length ? order[next++] : undefined);
}

/** Items drawn at random with repeats, without end. */
export function drawnAtRandom<T>(items: readonly T[], random: () => number = Math.random): RequestSource<T> {
  if (items.length === 0) throw new Error("a crowd of nobody cannot be drawn from");
  return () => items[Math.floor(random() * items.length)];
}

/**
 * Items drawn by weight, with repeats, without end: the sale hour's mix of pages. Each
 * entry's share of the draws is its weight over the sum of all weights.
 */
export function drawnByWeight<T>(
  entries: ReadonlyArray<{ weight: number; item: T }>,
  random: () => number = Math.random,
): RequestSource<T> {
  const total = entries.reduce((sum, { weight }) => sum + weight, 0);
  if (!(total > 0) || entries.some(({ weight }) => !(weight >= 0))) {
    throw new Error("weights must be >= 0 and add up to more than 0");
  }
  return () => {
    let left = random() * total;
    for (const { weight, item } of entries) {
      if (left < weight) return item;
      left -= weight;
    }
    // Only a random() of exactly 1 - ε rounding past the end lands here.
    return entries[entries.length - 1]?.item;
  };
}

/** A seeded random number generator (mulberry32), so a bench run can be drawn again the same. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
