import { describe, expect, it } from "vitest";
import { readConfig } from "../../../server/config.ts";
import { cartTotals, priceLines } from "../../../server/domain/cart-pricing.ts";
import { loadCatalogue } from "../../../server/domain/catalogue.ts";
import { subscriberBenefits } from "../../../server/domain/subscriber-benefits.ts";

const catalogue = loadCatalogue(readConfig({ COOKIE_SECRET: "x".repeat(32) }).cataloguePath);
const line = (productId: string, sizeId: string, quantity: number, orientation = "landscape") => ({
  productId,
  orientation,
  sizeId,
  quantity,
});
const plus = { printsPerMonth: 20, freePrintsLeft: 17, photoBookDiscount: 10 };

describe("what a subscription takes off a cart", () => {
  it("gives nothing without a subscription", () => {
    const lines = priceLines(catalogue, [line("classic-prints", "15x10", 5)]);
    expect(subscriberBenefits(lines, undefined).totalCents).toBe(0);
  });

  it("makes 10 × 15 prints free, upright or across, up to what is left this month", () => {
    const lines = priceLines(catalogue, [
      line("classic-prints", "15x10", 10),
      line("classic-prints", "10x15", 10, "portrait"),
    ]);
    const benefits = subscriberBenefits(lines, plus);
    expect(benefits).toMatchObject({ freePrints: 17, freePrintsCents: 17 * 25 });
  });

  it("keeps the price of larger and square prints", () => {
    const lines = priceLines(catalogue, [
      line("classic-prints", "18x13", 4),
      line("classic-prints", "13x18", 4, "portrait"),
      line("square-prints", "10x10", 4, "square"),
    ]);
    expect(subscriberBenefits(lines, plus)).toMatchObject({ freePrints: 0, totalCents: 0 });
  });

  it("makes no more prints free than the cart holds, and none when the month's are used", () => {
    const lines = priceLines(catalogue, [line("classic-prints", "15x10", 3)]);
    expect(subscriberBenefits(lines, plus)).toMatchObject({ freePrints: 3, freePrintsCents: 75 });
    expect(subscriberBenefits(lines, { ...plus, freePrintsLeft: 0 })).toMatchObject({
      freePrints: 0,
      totalCents: 0,
    });
  });

  it("does not count enlargements or unavailable lines as free prints", () => {
    const lines = priceLines(catalogue, [line("photo-enlargement", "30x20", 2)]);
    expect(subscriberBenefits(lines, plus).freePrints).toBe(0);
    const unavailable = lines.map((l) => ({ ...l, orderable: false }));
    expect(subscriberBenefits(unavailable, plus).totalCents).toBe(0);
  });

  it("takes the plan's percentage off photo books, rounded down to the cent", () => {
    const lines = priceLines(catalogue, [
      line("exclusive-photobook", "30x21", 1),
      line("canvas", "40x30", 1),
    ]);
    // 10% of 49.99 is 4.999: 4.99 off; the canvas keeps its price
    expect(subscriberBenefits(lines, plus)).toMatchObject({
      photoBookDiscount: 10,
      photoBookDiscountCents: 499,
    });
  });

  it("lowers the total and the VAT in it, not the subtotal", () => {
    const lines = priceLines(catalogue, [
      line("classic-prints", "15x10", 4),
      line("classic-photobook", "20x15", 1),
    ]);
    const benefits = subscriberBenefits(lines, plus);
    const totals = cartTotals(lines, "NL", benefits);
    expect(benefits.totalCents).toBe(100 + 199);
    expect(totals.subtotalCents).toBe(100 + 1999);
    expect(totals.totalCents).toBe(cartTotals(lines, "NL").totalCents - 299);
    expect(totals.vatCents).toBe(Math.round((totals.totalCents * 21) / 121));
  });
});
