import { describe, expect, it } from "vitest";
import { cartTotals, priceLines } from "../../../server/domain/cart-pricing.ts";
import { checkoutFingerprint } from "../../../server/domain/checkout-fingerprint.ts";
import { addressLines } from "../../../server/domain/delivery-address.ts";
import { orderIdOf, orderNumber } from "../../../server/domain/order-number.ts";
import { orderProduction } from "../../../server/domain/order-production.ts";
import { sampleCatalogue } from "./sample-catalogue.ts";

const catalogue = sampleCatalogue();
const address = {
  name: "Anna",
  street: "Dorpsstraat 1",
  postcode: "1234 AB",
  city: "Utrecht",
  country: "NL" as const,
  email: "anna@example.nl",
};

describe("an order's production time", () => {
  it("is set by its slowest product, at both ends", () => {
    const products = ["book-a", "book-b", "print-a"].map(
      (id) => catalogue.product(id) as NonNullable<ReturnType<typeof catalogue.product>>,
    );
    expect(orderProduction(products)).toEqual({ min: 4, max: 6 });
    expect(orderProduction(products.slice(2))).toEqual({ min: 1, max: 2 });
  });
});

describe("order numbers", () => {
  it("have at least six digits and lead back to the order", () => {
    expect(orderNumber(1)).toBe("100001");
    expect(orderIdOf("100001")).toBe(1);
    expect(orderIdOf(orderNumber(98765))).toBe(98765);
  });

  it("read anything else as no order", () => {
    for (const text of ["", "abc", "100000", "99999", "0100001", "1e6", "100001 ", "9".repeat(20)]) {
      expect(orderIdOf(text), text).toBeUndefined();
    }
  });
});

describe("the checkout fingerprint", () => {
  const lines = (quantity: number) =>
    priceLines(catalogue, [{ productId: "book-a", orientation: "landscape", sizeId: "30x20", quantity }]);
  const print = (quantity: number, where = address) =>
    checkoutFingerprint(lines(quantity), where, cartTotals(lines(quantity), where.country));

  it("is the same for the same cart, address and totals", () => {
    expect(print(2)).toBe(print(2));
    expect(print(2)).toMatch(/^[\w-]{22}$/);
  });

  it("changes when a quantity or the address changes", () => {
    expect(print(3)).not.toBe(print(2));
    expect(print(2, { ...address, street: "Kerkstraat 2" })).not.toBe(print(2));
  });
});

describe("an address on a parcel", () => {
  it("puts the postcode before the city and ends with the country", () => {
    expect(addressLines(address, "Nederland")).toEqual([
      "Anna",
      "Dorpsstraat 1",
      "1234 AB Utrecht",
      "Nederland",
    ]);
  });
});
