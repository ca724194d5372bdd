import { createHash } from "node:crypto";
import type { CartTotals, PricedLine } from "./cart-pricing.ts";
import type { DeliveryAddress } from "./delivery-address.ts";

/**
 * A short digest of exactly what the overview showed: lines, prices, address, totals.
 * The place-order form carries it, and the order is only placed when the cart still
 * digests the same, so a shopper never orders something other than what they saw
 * (an item added in another tab, a price changed in the meantime).
 */
export function checkoutFingerprint(
  lines: readonly PricedLine[],
  address: DeliveryAddress | undefined,
  totals: CartTotals,
): string {
  const seen = {
    lines: lines.map((l) => [
      l.productId,
      l.orientation,
      l.sizeId,
      l.projectId ?? null,
      l.quantity,
      l.unitCents,
      l.orderable,
    ]),
    address: address ?? null,
    totals: [
      totals.subtotalCents,
      totals.subscriber.totalCents,
      totals.shippingCents,
      totals.vatCents,
      totals.totalCents,
    ],
  };
  return createHash("sha256").update(JSON.stringify(seen)).digest("base64url").slice(0, 22);
}
