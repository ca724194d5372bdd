/** Countries the shop delivers to. */
export const deliveryCountries = ["NL", "DE"] as const;
export type DeliveryCountry = (typeof deliveryCountries)[number];

export function isDeliveryCountry(value: unknown): value is DeliveryCountry {
  return typeof value === "string" && (deliveryCountries as readonly string[]).includes(value);
}

/**
 * Dutch postcodes are four digits (never starting with 0) and two letters; SA, SD and
 * SS are not issued. German ones are five digits from 01001 to 99998. Returns the
 * postcode as the post office writes it ("1234 AB", "10115"), or undefined.
 */
export function normalizePostcode(country: DeliveryCountry, value: string): string | undefined {
  const compact = value.replace(/\s+/g, "").toUpperCase();
  if (country === "NL") {
    const match = /^([1-9]\d{3})([A-Z]{2})$/.exec(compact);
    if (!match || ["SA", "SD", "SS"].includes(match[2] ?? "")) return undefined;
    return `${match[1]} ${match[2]}`;
  }
  if (!/^\d{5}$/.test(compact)) return undefined;
  const number = Number(compact);
  return number >= 1001 && number <= 99998 ? compact : undefined;
}
