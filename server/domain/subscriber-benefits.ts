import type { PricedLine } from "./cart-pricing.ts";
import type { Product } from "./catalogue.ts";
import { isPhotoBook } from "./photo-books.ts";

/**
 * What a photo subscription takes off a cart: its free prints of this month and its
 * discount on photo books, each as its own amount so the cart, the overview and the order
 * show and store them as lines of their own. Pure: the same cart and the same allowance
 * always give the same amounts.
 */

/** What the shopper's subscription gives now; none without an active one. */
export interface SubscriberAllowance {
  /** Free prints the plan gives per paid period. */
  printsPerMonth: number;
  /** Of those, what orders of the current period have not used yet. */
  freePrintsLeft: number;
  /** Percent off photo books. */
  photoBookDiscount: number;
}

export interface SubscriberBenefits {
  /** How many prints in this cart are free. */
  freePrints: number;
  /** What those prints would have cost. */
  freePrintsCents: number;
  photoBookDiscount: number;
  /** The discount on the cart's photo books, in cents. */
  photoBookDiscountCents: number;
  /** Both together: what the subscription takes off the subtotal. */
  totalCents: number;
}

export const noBenefits: SubscriberBenefits = {
  freePrints: 0,
  freePrintsCents: 0,
  photoBookDiscount: 0,
  photoBookDiscountCents: 0,
  totalCents: 0,
};

/**
 * A free print is a photo print sold by the piece (the prints drawn as a stack); an
 * enlargement is priced as wall decoration would be and is not one of the month's prints.
 */
export function isFreePrint(product: Product): boolean {
  return product.category === "prints" && product.model.shape === "stack";
}

/**
 * The free prints go to the cheapest prints first: the saving then does not depend on the
 * order the lines were added in, and the allowance stays an allowance of standard prints.
 * Photo books lose their percentage, rounded down to the cent, as the shop would round.
 */
export function subscriberBenefits(
  lines: readonly PricedLine[],
  allowance: SubscriberAllowance | undefined,
): SubscriberBenefits {
  if (!allowance) return noBenefits;
  const ordered = lines.filter((l) => l.orderable);
  const prints = ordered.filter((l) => isFreePrint(l.product)).sort((a, b) => a.unitCents - b.unitCents);
  let left = Math.max(0, allowance.freePrintsLeft);
  let freePrints = 0;
  let freePrintsCents = 0;
  for (const line of prints) {
    const free = Math.min(left, line.quantity);
    left -= free;
    freePrints += free;
    freePrintsCents += free * line.unitCents;
  }
  const bookCents = ordered.filter((l) => isPhotoBook(l.product)).reduce((sum, l) => sum + l.totalCents, 0);
  const photoBookDiscountCents = Math.floor((bookCents * allowance.photoBookDiscount) / 100);
  return {
    freePrints,
    freePrintsCents,
    photoBookDiscount: allowance.photoBookDiscount,
    photoBookDiscountCents,
    totalCents: freePrintsCents + photoBookDiscountCents,
  };
}
