import type { Locale } from "../i18n/locales.ts";
import type { DeliveryCountry } from "./postcode.ts";

/** Where an order goes, as the address step saves it on the cart (postcode as the post office writes it). */
export interface DeliveryAddress {
  name: string;
  street: string;
  postcode: string;
  city: string;
  country: DeliveryCountry;
  email: string;
  phone?: string;
}

/** Before the shopper names a country, the cart assumes the one of the shop's language. */
export const countryOfLocale: Record<Locale, DeliveryCountry> = { nl: "NL", de: "DE" };

/**
 * The address as it goes on a parcel, line by line: name, street, "postcode city", country.
 * Dutch and German post both put the postcode before the city.
 */
export function addressLines(address: DeliveryAddress, countryName: string): string[] {
  return [address.name, address.street, `${address.postcode} ${address.city}`, countryName];
}
