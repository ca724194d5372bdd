import { describe, expect, it } from "vitest";
import { cartTotals, includedVat, priceLines } from "../../../server/domain/cart-pricing.ts";
import { sampleCatalogue } from "./sample-catalogue.ts";

const catalogue = sampleCatalogue();
const line = (productId: string, quantity: number, sizeId = "30x20") => ({
  productId,
  orientation: "landscape",
  sizeId,
  quantity,
});

describe("pricing a cart", () => {
  it("prices each line from the catalogue in whole cents", () => {
    const [priced] = priceLines(catalogue, [line("book-a", 3, "45x30")]);
    expect(priced).toMatchObject({ unitCents: 9998, totalCents: 29994, orderable: true });
  });

  it("drops lines whose product or size left the catalogue", () => {
    expect(
      priceLines(catalogue, [line("gone", 1), line("book-a", 1, "99x99"), line("wall-a", 1)]),
    ).toHaveLength(1);
  });

  it("keeps a line whose size is no longer available, marked, and leaves it out of the totals", () => {
    const lines = priceLines(catalogue, [line("print-b", 2), line("wall-a", 1)]);
    expect(lines.map((l) => l.orderable)).toEqual([false, true]);
    expect(cartTotals(lines, "NL")).toMatchObject({ itemCount: 1, subtotalCents: 1000 });
  });

  it("charges the delivery country's shipping unless a product in the order ships free", () => {
    const prints = priceLines(catalogue, [line("print-a", 10)]);
    expect(cartTotals(prints, "NL")).toMatchObject({
      subtotalCents: 250,
      shippingCents: 495,
      totalCents: 745,
      freeShipping: false,
    });
    expect(cartTotals(prints, "DE")).toMatchObject({ shippingCents: 695, totalCents: 945 });
    const withBook = priceLines(catalogue, [line("print-a", 10), line("book-a", 1)]);
    expect(cartTotals(withBook, "DE")).toMatchObject({
      shippingCents: 0,
      freeShipping: true,
      totalCents: 5249,
    });
  });

  it("includes the delivery country's VAT: 21% in the Netherlands, 19% in Germany", () => {
    const lines = priceLines(catalogue, [line("book-a", 2)]);
    expect(cartTotals(lines, "NL")).toMatchObject({ vatRate: 21, vatCents: 1735, totalCents: 9998 });
    expect(cartTotals(lines, "DE")).toMatchObject({ vatRate: 19, vatCents: 1596, totalCents: 9998 });
  });

  it("rounds the VAT share to the nearest cent", () => {
    expect(includedVat(121, 21)).toBe(21);
    expect(includedVat(100, 21)).toBe(17);
    expect(includedVat(119, 19)).toBe(19);
    expect(includedVat(0, 21)).toBe(0);
  });

  it("costs nothing when there is nothing to order", () => {
    expect(cartTotals([], "NL")).toMatchObject({
      itemCount: 0,
      shippingCents: 0,
      totalCents: 0,
      vatCents: 0,
    });
  });
});
