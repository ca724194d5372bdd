import type { PricedLine } from "./cart-pricing.ts";
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
 * The sizes of a free print: 10 × 15 cm, upright or across, as the subscription page tells
 * the shopper ("Gratis afdrukken zijn foto's van 10 x 15 cm", locales' subscription.explain).
 */
const freePrintSizes: ReadonlySet<string> = new Set(["10x15", "15x10"]);

/**
 * A free print is a photo print sold by the piece (the prints drawn as a stack) in the
 * size of a free print; larger prints and enlargements keep their price.
 */
export function isFreePrint(line: Pick<PricedLine, "product" | "sizeId">): boolean {
  return (
    line.product.category === "prints" &&
    line.product.model.shape === "stack" &&
    freePrintSizes.has(line.sizeId)
  );
}

/**
 * The free prints go to the cheapest prints first, should 10 × 15 prints ever differ in
 * price: the saving then does not depend on the order the lines were added in.
 * Photo books lose their percentage, rounded down to the cent, as the shop would round.
 */
export function subscriberBenefits(
  lines: readonly PricedLine[],
  allowance: SubscriberAllowance | undefined,
): SubscriberBenefits {
  if (!allowance) return noBenefits;
  const ordered = lines.filter((l) => l.orderable);
  const prints = ordered.filter((l) => isFreePrint(l)).sort((a, b) => a.unitCents - b.unitCents);
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
