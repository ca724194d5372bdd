/**
 * The part of the schema.org vocabulary the shop's JSON-LD uses, kept by hand from the
 * type pages on https://schema.org (as read in December 2026): for each type, the properties it may
 * carry (its own and those inherited from Thing, Intangible, StructuredValue and the
 * like) and, for a property whose value is a node, the types that value may have (the
 * property's "Values expected to be one of these types", subtypes included where used).
 * A property holding text, a number or a URL is listed with the literal kinds it takes.
 * Enumeration members are listed with the enumeration they belong to.
 */

type Literal = "Text" | "Number" | "URL" | "Integer";
type Range = ReadonlyArray<Literal | string>;

const thing = {
  name: ["Text"],
  description: ["Text"],
  url: ["URL"],
  image: ["URL", "ImageObject"],
} as const satisfies Record<string, Range>;

export const vocabulary: Record<string, Record<string, Range>> = {
  Product: {
    ...thing,
    sku: ["Text"],
    mpn: ["Text"],
    brand: ["Brand", "Organization"],
    manufacturer: ["Organization"],
    offers: ["Offer"],
  },
  Brand: { ...thing, logo: ["URL", "ImageObject"] },
  Offer: {
    ...thing,
    sku: ["Text"],
    price: ["Text", "Number"],
    priceCurrency: ["Text"],
    availability: ["ItemAvailability"],
    itemCondition: ["OfferItemCondition"],
    shippingDetails: ["OfferShippingDetails"],
    hasMerchantReturnPolicy: ["MerchantReturnPolicy"],
    seller: ["Organization", "Person"],
  },
  OfferShippingDetails: {
    ...thing,
    shippingDestination: ["DefinedRegion"],
    shippingRate: ["MonetaryAmount"],
    deliveryTime: ["ShippingDeliveryTime"],
  },
  DefinedRegion: { ...thing, addressCountry: ["Text", "Country"], addressRegion: ["Text"] },
  MonetaryAmount: {
    ...thing,
    value: ["Number", "Text"],
    currency: ["Text"],
    minValue: ["Number"],
    maxValue: ["Number"],
  },
  ShippingDeliveryTime: {
    ...thing,
    businessDays: ["OpeningHoursSpecification", "DayOfWeek"],
    cutoffTime: ["Text"],
    handlingTime: ["QuantitativeValue", "ServicePeriod"],
    transitTime: ["QuantitativeValue", "ServicePeriod"],
  },
  OpeningHoursSpecification: { ...thing, dayOfWeek: ["DayOfWeek"], opens: ["Text"], closes: ["Text"] },
  QuantitativeValue: {
    ...thing,
    value: ["Number", "Text"],
    minValue: ["Number"],
    maxValue: ["Number"],
    unitCode: ["Text", "URL"],
  },
  MerchantReturnPolicy: {
    ...thing,
    applicableCountry: ["Text", "Country"],
    returnPolicyCategory: ["MerchantReturnEnumeration"],
    merchantReturnDays: ["Integer"],
    returnMethod: ["ReturnMethodEnumeration"],
    returnFees: ["ReturnFeesEnumeration"],
  },
  Organization: {
    ...thing,
    legalName: ["Text"],
    logo: ["URL", "ImageObject"],
    email: ["Text"],
    telephone: ["Text"],
    vatID: ["Text"],
    address: ["PostalAddress", "Text"],
    hasMerchantReturnPolicy: ["MerchantReturnPolicy"],
  },
  PostalAddress: {
    ...thing,
    streetAddress: ["Text"],
    postalCode: ["Text"],
    addressLocality: ["Text"],
    addressCountry: ["Text", "Country"],
    email: ["Text"],
    telephone: ["Text"],
  },
  BreadcrumbList: { ...thing, itemListElement: ["ListItem"] },
  ListItem: { ...thing, position: ["Integer", "Text"], item: ["URL", "Thing"] },
};

/** Enumeration members, as the full schema.org URL a value names them by. */
export const enumerations: Record<string, readonly string[]> = {
  ItemAvailability: ["InStock", "OutOfStock", "PreOrder", "Discontinued"],
  OfferItemCondition: ["NewCondition", "UsedCondition", "RefurbishedCondition", "DamagedCondition"],
  MerchantReturnEnumeration: [
    "MerchantReturnFiniteReturnWindow",
    "MerchantReturnNotPermitted",
    "MerchantReturnUnlimitedWindow",
    "MerchantReturnUnspecified",
  ],
  DayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "PublicHolidays"],
};

function literalFits(kind: string, value: unknown): boolean {
  switch (kind) {
    case "Text":
      return typeof value === "string";
    case "Number":
      return typeof value === "number" && Number.isFinite(value);
    case "Integer":
      return Number.isInteger(value);
    case "URL":
      return typeof value === "string" && /^https?:\/\/[^\s]+$/.test(value);
    default:
      return false;
  }
}

/**
 * What is wrong with a JSON-LD node against the vocabulary above: unknown types, properties
 * a type does not have, and values of a kind the property does not take. Empty when it fits.
 */
export function schemaProblems(node: unknown, where = "$", expected?: Range): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => schemaProblems(n, `${where}[${i}]`, expected));
  if (node === null || typeof node !== "object") {
    if (!expected) return [`${where}: a bare value where a node belongs`];
    const enumHit = Object.entries(enumerations).some(
      ([enumeration, members]) =>
        expected.includes(enumeration) &&
        typeof node === "string" &&
        members.some((m) => node === `https://schema.org/${m}`),
    );
    if (enumHit || expected.some((kind) => literalFits(kind, node))) return [];
    return [`${where}: ${JSON.stringify(node)} is none of ${expected.join(", ")}`];
  }
  const record = node as Record<string, unknown>;
  const type = record["@type"];
  if (typeof type !== "string") {
    // A reference to a node elsewhere ({ "@id": … }) says nothing about its type.
    if (Object.keys(record).every((key) => key === "@id")) return [];
    return [`${where}: a node without @type`];
  }
  const properties = vocabulary[type];
  if (!properties) return [`${where}: @type ${type} is not in the vocabulary list`];
  const typeFits = !expected || expected.includes(type) || (expected.includes("Thing") && type in vocabulary);
  const problems = typeFits ? [] : [`${where}: a ${type} where ${expected?.join(" or ")} belongs`];
  for (const [key, value] of Object.entries(record)) {
    if (key === "@type" || key === "@id") continue;
    if (key === "@context") {
      if (value !== "https://schema.org") problems.push(`${where}: @context is ${JSON.stringify(value)}`);
      continue;
    }
    const range = properties[key];
    if (!range) {
      problems.push(`${where}: ${type} has no property ${key}`);
      continue;
    }
    problems.push(...schemaProblems(value, `${where}.${key}`, range));
  }
  return problems;
}
