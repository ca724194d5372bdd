import type { Locale } from "../i18n/locales.ts";
import type { Manufacturer, Product } from "./catalogue.ts";
import { type Company, customerServiceContact } from "./company.ts";
import { transitDays } from "./delivery-times.ts";
import { type DeliveryCountry, deliveryCountries } from "./postcode.ts";

/**
 * The schema.org objects the pages carry as JSON-LD, built from the shop's own facts: the
 * company (content/company.json), the shipping prices (content/prices.json), the
 * catalogue's production times and the transit days of delivery-times.ts. Only types and
 * properties listed in tests/support/schema-org.ts are used; its test checks each of them.
 */

type Node = Record<string, unknown>;

/** The shop's node id: the home page's Organization, referred to by the other pages. */
export const organizationId = (origin: string) => `${origin}/#organization`;

/**
 * Every product is made from the shopper's own photos, so none can be returned under the
 * right of withdrawal (§ 312g (2) 1 BGB, art. 6:230p BW); defects stay covered by the
 * statutory warranty, which is no return policy.
 */
export function merchantReturnPolicy(): Node {
  return {
    "@type": "MerchantReturnPolicy",
    applicableCountry: [...deliveryCountries],
    returnPolicyCategory: "https://schema.org/MerchantReturnNotPermitted",
  };
}

function postalAddress(address: Manufacturer["address"]): Node {
  return {
    "@type": "PostalAddress",
    streetAddress: address.street,
    postalCode: address.postcode,
    addressLocality: address.city,
    addressCountry: address.countryCode,
  };
}

/** Who makes the product (GPSR): the company unless the catalogue names someone else. */
export function manufacturerOf(product: Product, company: Company, locale: Locale): Manufacturer {
  return (
    product.safety.manufacturer ?? {
      name: company.name,
      address: {
        street: company.address.street,
        postcode: company.address.postcode,
        city: company.address.city,
        countryCode: company.address.countryCode,
      },
      email: company.customerService[locale].email,
    }
  );
}

export function manufacturerNode(manufacturer: Manufacturer): Node {
  return {
    "@type": "Organization",
    name: manufacturer.name,
    email: manufacturer.email,
    address: postalAddress(manufacturer.address),
  };
}

/** The home page's Organization: the company's details and its return policy. */
export function organization(
  company: Company,
  locale: Locale,
  origin: string,
  homeUrl: string,
  logoUrl: string,
): Node {
  const contact = customerServiceContact(company, locale);
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    "@id": organizationId(origin),
    name: company.tradeName,
    legalName: company.name,
    url: homeUrl,
    logo: logoUrl,
    email: contact.email,
    telephone: contact.phoneLink,
    vatID: company.vatId,
    address: postalAddress(company.address),
    hasMerchantReturnPolicy: merchantReturnPolicy(),
  };
}

const days = (range: { min: number; max: number }): Node => ({
  "@type": "QuantitativeValue",
  minValue: range.min,
  maxValue: range.max,
  unitCode: "DAY",
});

/**
 * What shipping one product costs and how long it takes, per delivery country: the
 * country's price unless the product ships free, its standard production as handling time
 * and the carrier's working days as transit. Production and delivery count working days,
 * Monday to Friday (holidays aside, which schema.org cannot say).
 */
export function shippingDetails(product: Product, shipping: Record<DeliveryCountry, number>): Node[] {
  return deliveryCountries.map((country) => ({
    "@type": "OfferShippingDetails",
    shippingDestination: { "@type": "DefinedRegion", addressCountry: country },
    shippingRate: {
      "@type": "MonetaryAmount",
      value: product.freeShipping ? 0 : shipping[country] / 100,
      currency: "EUR",
    },
    deliveryTime: {
      "@type": "ShippingDeliveryTime",
      businessDays: {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"].map(
          (day) => `https://schema.org/${day}`,
        ),
      },
      handlingTime: days(product.production.standard),
      transitTime: days(transitDays[country]),
    },
  }));
}

export interface Crumb {
  label: string;
  /** Site-relative; absent for the page itself (the last crumb). */
  href?: string;
}

/** The page's breadcrumbs as a BreadcrumbList: home first, the page itself last, every item an absolute URL. */
export function breadcrumbList(origin: string, home: Crumb, crumbs: readonly Crumb[], pageUrl: string): Node {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: [home, ...crumbs].map((crumb, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: crumb.label,
      item: crumb.href === undefined ? pageUrl : origin + crumb.href,
    })),
  };
}
