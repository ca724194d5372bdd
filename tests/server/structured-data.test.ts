import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCompany } from "../../server/domain/company.ts";
import { transitDays } from "../../server/domain/delivery-times.ts";
import { priceList } from "../../server/domain/prices.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { jsonLdBlocks, jsonLdOfType } from "../support/json-ld.ts";
import { schemaProblems } from "../support/schema-org.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const origin = "http://localhost:3000";
const get = (url: string) => shop.app.inject({ method: "GET", url, headers: { host: "localhost:3000" } });
const company = loadCompany();

type Node = Record<string, unknown>;

const pages = {
  home: ["/", "/de"],
  category: ["/assortiment/fotoboeken", "/sortiment/wanddeko"],
  product: ["/assortiment/fotoboeken/exclusief-fotoboek", "/sortiment/fotoabzuege/klassische-fotoabzuege"],
  faq: [
    "/klantenservice/faq/overzicht",
    "/kundenservice/faq/lieferung",
    "/klantenservice/faq/bestellen/hoe-bestel-ik",
  ],
};

describe("the pages' JSON-LD", () => {
  it("uses only schema.org types and properties, each where schema.org allows it", async () => {
    for (const url of Object.values(pages).flat()) {
      const blocks = jsonLdBlocks((await get(url)).body);
      expect(blocks.length, url).toBeGreaterThan(0);
      expect(schemaProblems(blocks), url).toEqual([]);
    }
  });

  it("gives the home page the company as Organization, with its return policy", async () => {
    const org = jsonLdOfType((await get("/de")).body, "Organization");
    expect(org).toMatchObject({
      "@context": "https://schema.org",
      name: company.tradeName,
      legalName: company.name,
      url: `${origin}/de`,
      // The German home page names German customer service.
      email: company.customerService.de.email,
      telephone: company.customerService.de.phone.replaceAll(" ", ""),
      vatID: company.vatId,
      address: { "@type": "PostalAddress", postalCode: company.address.postcode, addressCountry: "NL" },
      // Made from the shopper's photos: excluded from withdrawal in both countries.
      hasMerchantReturnPolicy: {
        "@type": "MerchantReturnPolicy",
        applicableCountry: ["NL", "DE"],
        returnPolicyCategory: "https://schema.org/MerchantReturnNotPermitted",
      },
    });
    const logo = await get(new URL(org.logo as string).pathname);
    expect(logo.statusCode).toBe(200);
  });

  it("gives category, product and FAQ pages a BreadcrumbList that follows the visible trail", async () => {
    const product = jsonLdOfType((await get(pages.product[0] as string)).body, "BreadcrumbList");
    expect(product.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: `${origin}/` },
      { "@type": "ListItem", position: 2, name: "Fotoboeken", item: `${origin}/assortiment/fotoboeken` },
      {
        "@type": "ListItem",
        position: 3,
        name: "Exclusief fotoboek",
        item: `${origin}/assortiment/fotoboeken/exclusief-fotoboek`,
      },
    ]);
    for (const url of [...pages.category, ...pages.faq]) {
      const html = (await get(url)).body;
      const items = jsonLdOfType(html, "BreadcrumbList").itemListElement as Node[];
      const visible = [
        ...(/<nav class="breadcrumbs"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "").matchAll(
          /<(?:a|span)[^>]*>([^<]+)</g,
        ),
      ].map((m) => m[1]);
      expect(
        items.map((i) => i.name),
        url,
      ).toEqual(visible);
      expect(items.at(-1)?.item, url).toBe(origin + url);
      expect(items.map((i) => i.position)).toEqual(items.map((_, i) => i + 1));
    }
  });

  it("gives each Offer its shipping per country from the price list and production times, and the return policy", async () => {
    const canvas = jsonLdOfType((await get("/assortiment/wanddecoratie/foto-op-canvas")).body, "Product");
    const prints = jsonLdOfType(
      (await get("/assortiment/fotoafdrukken/klassieke-fotoafdrukken")).body,
      "Product",
    );
    const shippingOf = (product: Node) => ((product.offers as Node[])[0] as Node).shippingDetails as Node[];
    for (const product of [canvas, prints]) {
      for (const offer of product.offers as Node[]) {
        expect(offer.hasMerchantReturnPolicy).toMatchObject({
          returnPolicyCategory: "https://schema.org/MerchantReturnNotPermitted",
        });
        expect(offer.shippingDetails).toEqual(shippingOf(product));
      }
    }
    const rate = (product: Node, country: string) => {
      const details = shippingOf(product).find(
        (d) => (d.shippingDestination as Node).addressCountry === country,
      );
      return (details?.shippingRate as Node | undefined)?.value;
    };
    // The canvas ships free; prints pay the country's shipping.
    expect(rate(canvas, "NL")).toBe(0);
    expect(rate(prints, "NL")).toBe(priceList.shipping.NL / 100);
    expect(rate(prints, "DE")).toBe(priceList.shipping.DE / 100);
    const toGermany = shippingOf(prints).find((d) => (d.shippingDestination as Node).addressCountry === "DE");
    expect(toGermany?.deliveryTime).toMatchObject({
      "@type": "ShippingDeliveryTime",
      handlingTime: { minValue: 1, maxValue: 2, unitCode: "DAY" },
      transitTime: { minValue: transitDays.DE.min, maxValue: transitDays.DE.max, unitCode: "DAY" },
    });
  });
});

describe("the vocabulary check itself", () => {
  it("finds a property a type does not have, an unknown type and a value of the wrong kind", () => {
    expect(schemaProblems({ "@type": "Offer", shippingRate: 5 })).toEqual([
      "$: Offer has no property shippingRate",
    ]);
    expect(schemaProblems({ "@type": "OfferShipping" })).toEqual([
      "$: @type OfferShipping is not in the vocabulary list",
    ]);
    expect(schemaProblems({ "@type": "Offer", availability: "InStock" })).toHaveLength(1);
    expect(
      schemaProblems({ "@type": "Offer", shippingDetails: { "@type": "MonetaryAmount", value: 1 } }),
    ).toEqual(["$.shippingDetails: a MonetaryAmount where OfferShippingDetails belongs"]);
  });
});
