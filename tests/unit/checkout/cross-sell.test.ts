import { describe, expect, it } from "vitest";
import { crossSellTips } from "../../../server/domain/cross-sell.ts";
import { sampleCatalogue } from "./sample-catalogue.ts";

const catalogue = sampleCatalogue();
const ids = (inCart: string[], limit?: number) =>
  crossSellTips(catalogue, inCart, limit).map((t) => t.product.id);

describe("cross-sell tips", () => {
  it("gives none for an empty cart", () => {
    expect(ids([])).toEqual([]);
  });

  it("suggests other kinds of product first, taking turns, then more of the same kind", () => {
    expect(ids(["book-a"])).toEqual(["print-a", "wall-a", "print-b", "wall-b", "book-b"]);
  });

  it("never suggests what is in the cart, and changes with the cart", () => {
    expect(ids(["print-a"])).toEqual(["book-a", "wall-a", "book-b", "wall-b", "print-b"]);
    expect(ids(["book-a", "print-a", "wall-a"])).toEqual(["book-b", "print-b", "wall-b"]);
  });

  it("leaves out products that cannot be ordered in any size, and picks an orderable option", () => {
    const tips = crossSellTips(catalogue, ["book-a"], 10);
    expect(tips.map((t) => t.product.id)).not.toContain("wall-sold-out");
    // print-b's recommended size cannot be ordered now; its other size can.
    expect(tips.find((t) => t.product.id === "print-b")?.choice.id).toBe("45x30");
    expect(tips.find((t) => t.product.id === "print-a")?.choice.id).toBe("30x20");
  });

  it("stops at the limit", () => {
    expect(ids(["book-a"], 2)).toEqual(["print-a", "wall-a"]);
  });
});
