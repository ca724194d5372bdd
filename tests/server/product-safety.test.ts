import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCompany } from "../../server/domain/company.ts";
import { type TestShop, testConfig, testShop } from "../support/app.ts";
import { jsonLdOfType } from "../support/json-ld.ts";

const company = loadCompany();
const plain = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

/** The real catalogue with the canvas made by someone else, as a product bought in would be. */
function boughtInCanvas(): string {
  const data = JSON.parse(readFileSync(testConfig().cataloguePath, "utf8"));
  const canvas = data.products.find((p: { id: string }) => p.id === "canvas");
  canvas.safety.manufacturer = {
    name: "Leinwandwerk GmbH",
    address: { street: "Hafenstraße 3", postcode: "20457", city: "Hamburg", countryCode: "DE" },
    email: "sicherheit@leinwandwerk.example",
  };
  const file = join(mkdtempSync(join(tmpdir(), "product-safety-")), "catalogue.json");
  writeFileSync(file, JSON.stringify(data));
  return file;
}

let shop: TestShop;
let boughtIn: TestShop;
beforeAll(async () => {
  [shop, boughtIn] = await Promise.all([testShop(), testShop({ env: { CATALOGUE_PATH: boughtInCanvas() } })]);
});
afterAll(() => Promise.all([shop.close(), boughtIn.close()]));

const get = (target: TestShop, url: string) =>
  target.app.inject({ method: "GET", url, headers: { host: "shop.test" } });

function safetySection(html: string): string {
  const section = /<section class="product__safety"[\s\S]*?<\/section>/.exec(html)?.[0];
  if (!section) throw new Error("no product-safety section");
  return section;
}

describe("the product-safety details (GPSR) on a product page", () => {
  it("name the type number and the company as manufacturer, with its postal and e-mail address, in Dutch", async () => {
    const res = await get(shop, "/assortiment/fotoboeken/exclusief-fotoboek");
    expect(res.statusCode).toBe(200);
    const section = safetySection(res.body);
    expect(section).toContain('<h2 id="safety-title" class="product__safety-title">Productveiligheid</h2>');
    const text = plain(section);
    expect(text).toContain("Typenummer FH-FB-EX");
    expect(text).toContain(
      `Fabrikant ${company.name} ${company.address.street} ${company.address.postcode} ${company.address.city} Nederland ${company.customerService.nl.email}`,
    );
    expect(section).toContain(`href="mailto:${company.customerService.nl.email}"`);
    // A photo book needs no instructions to be safe.
    expect(text).not.toContain("Veilig gebruik");
  });

  it("give the canvas its mounting instructions, in German on the German page", async () => {
    const res = await get(shop, "/sortiment/wanddeko/foto-auf-leinwand");
    expect(res.statusCode).toBe(200);
    const text = plain(safetySection(res.body));
    expect(text).toContain("Produktsicherheit");
    expect(text).toContain("Typennummer FH-WD-CV");
    expect(text).toContain(`Hersteller ${company.name}`);
    expect(text).toContain("Niederlande");
    expect(text).toMatch(/Sichere Verwendung Hängen Sie die Leinwand mit dem mitgelieferten Aufhänger/);
  });

  it("name another manufacturer where the catalogue says someone else makes the product", async () => {
    const res = await get(boughtIn, "/assortiment/wanddecoratie/foto-op-canvas");
    expect(res.statusCode).toBe(200);
    const text = plain(safetySection(res.body));
    expect(text).toContain("Fabrikant Leinwandwerk GmbH Hafenstraße 3 20457 Hamburg Duitsland");
    expect(text).not.toContain(company.name);
    const product = jsonLdOfType(res.body, "Product");
    expect(product.manufacturer).toEqual({
      "@type": "Organization",
      name: "Leinwandwerk GmbH",
      email: "sicherheit@leinwandwerk.example",
      address: {
        "@type": "PostalAddress",
        streetAddress: "Hafenstraße 3",
        postalCode: "20457",
        addressLocality: "Hamburg",
        addressCountry: "DE",
      },
    });
  });

  it("are in the Product JSON-LD: the type number as mpn, the manufacturer with its address", async () => {
    const res = await get(shop, "/assortiment/wanddecoratie/foto-op-canvas");
    const product = jsonLdOfType(res.body, "Product");
    expect(product.mpn).toBe("FH-WD-CV");
    expect(product.manufacturer).toMatchObject({
      "@type": "Organization",
      name: company.name,
      email: company.customerService.nl.email,
      address: { addressCountry: company.address.countryCode, postalCode: company.address.postcode },
    });
  });
});
