import { vatRates } from "./cart-pricing.ts";
import type { DeliveryCountry } from "./postcode.ts";

/**
 * The VAT rate of a subscription's fee: an electronic service to a consumer is taxed where
 * the consumer lives (art. 58 of the EU VAT directive), so the rate of the country the
 * subscriber said at sign-up, never of the language they signed up in (ADR 0110).
 */
export function subscriptionVatRate(subscription: { country: DeliveryCountry }): number {
  return vatRates[subscription.country];
}
