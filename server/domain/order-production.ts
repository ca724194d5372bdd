import type { Product } from "./catalogue.ts";

export interface WorkingDays {
  min: number;
  max: number;
}

/**
 * How long an order takes to make, in working days: it ships in one parcel, so the
 * slowest product sets both ends of the range. Standard production; the cart has no
 * rush option yet.
 */
export function orderProduction(products: readonly Pick<Product, "production">[]): WorkingDays {
  let min = 0;
  let max = 0;
  for (const product of products) {
    min = Math.max(min, product.production.standard.min);
    max = Math.max(max, product.production.standard.max);
  }
  return { min, max };
}
