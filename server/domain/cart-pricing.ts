import type { Catalogue, Product, ProductSize } from "./catalogue.ts";
import type { DeliveryCountry } from "./postcode.ts";
import { priceList } from "./prices.ts";
import { noBenefits, type SubscriberBenefits } from "./subscriber-benefits.ts";

/**
 * What a cart costs: each line priced from the catalogue at the moment of looking, then
 * subtotal, shipping and the VAT the total includes. Prices in the catalogue include VAT,
 * so the delivery country changes the VAT share, never the price the shopper sees.
 * Pure: the contents page, the overview, the order and its mail all total the same way.
 */

/** Standard VAT rates of the countries the shop delivers to, in percent. */
export const vatRates: Record<DeliveryCountry, number> = { NL: 21, DE: 19 };

/** Shipping costs per delivery country in cents, from the editors' price list (content/prices.json). */
export const shippingCosts: Record<DeliveryCountry, number> = priceList.shipping;

export interface StoredLine {
  productId: string;
  orientation: string;
  sizeId: string;
  quantity: number;
  /** A photo-book project (the online editor): priced as its product in its format. */
  projectId?: string;
}

export interface PricedLine extends StoredLine {
  product: Product;
  size: ProductSize;
  unitCents: number;
  totalCents: number;
  /** false for a size that has become unavailable since it was added (or a photo book left without photos): shown, not ordered */
  orderable: boolean;
}

export interface CartTotals {
  /** Items that will be ordered (unavailable lines left out) */
  itemCount: number;
  subtotalCents: number;
  /** What the shopper's subscription takes off the subtotal (free prints, photo-book discount). */
  subscriber: SubscriberBenefits;
  shippingCents: number;
  /** A product with free shipping ships the whole order free: it travels in one parcel. */
  freeShipping: boolean;
  country: DeliveryCountry;
  vatRate: number;
  /** The VAT included in the total */
  vatCents: number;
  totalCents: number;
}

/** Lines whose product or size left the catalogue are dropped: they can no longer be shown or made. */
export function priceLines(catalogue: Catalogue, stored: readonly StoredLine[]): PricedLine[] {
  return stored.flatMap((line) => {
    const product = catalogue.product(line.productId);
    const size = product?.sizes.find((s) => s.id === line.sizeId && s.orientation === line.orientation);
    if (!product || !size) return [];
    return [
      {
        ...line,
        product,
        size,
        unitCents: size.priceCents,
        totalCents: size.priceCents * line.quantity,
        orderable: size.available,
      },
    ];
  });
}

/** The VAT share of a price that includes it, rounded to the cent. */
export function includedVat(grossCents: number, rate: number): number {
  return Math.round((grossCents * rate) / (100 + rate));
}

export function cartTotals(
  lines: readonly PricedLine[],
  country: DeliveryCountry,
  subscriber: SubscriberBenefits = noBenefits,
): CartTotals {
  const ordered = lines.filter((l) => l.orderable);
  const subtotalCents = ordered.reduce((sum, l) => sum + l.totalCents, 0);
  const freeShipping = ordered.some((l) => l.product.freeShipping);
  const shippingCents = ordered.length === 0 || freeShipping ? 0 : shippingCosts[country];
  const totalCents = subtotalCents - subscriber.totalCents + shippingCents;
  const vatRate = vatRates[country];
  return {
    itemCount: ordered.reduce((sum, l) => sum + l.quantity, 0),
    subtotalCents,
    subscriber,
    shippingCents,
    freeShipping,
    country,
    vatRate,
    vatCents: includedVat(totalCents, vatRate),
    totalCents,
  };
}
