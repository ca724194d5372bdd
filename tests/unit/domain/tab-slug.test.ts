import { describe, expect, it } from "vitest";
import { hashSlug, tabForHash, tabSlug } from "../../../server/domain/tab-slug.ts";

describe("a tab's address fragment", () => {
  it("is its label in plain lower-case letters, words joined by -", () => {
    expect(tabSlug("Uploads")).toBe("uploads");
    expect(tabSlug("Veelgestelde vragen")).toBe("veelgestelde-vragen");
    expect(tabSlug("Häufige Fragen?")).toBe("haufige-fragen");
    expect(tabSlug("Größe & Maß")).toBe("grosse-mass");
    expect(tabSlug("  Tarife  ")).toBe("tarife");
  });

  it("finds its tab whatever the case or accents of the fragment", () => {
    const labels = ["Abonnementen", "Uploads", "Vragen"];
    for (const hash of ["#uploads", "#Uploads", "#UPLOADS", "#uplöads", "#upl%C3%B6ads", "uploads"]) {
      expect(tabForHash(hash, labels), hash).toBe(1);
    }
    expect(tabForHash("#vrágen", labels)).toBe(2);
    expect(tabForHash("#aanmelden", labels)).toBe(-1);
    expect(tabForHash("", labels)).toBe(-1);
    expect(tabForHash("#", labels)).toBe(-1);
  });

  it("reads a malformed escape as it is, without throwing", () => {
    expect(hashSlug("#%E0%A4%A")).toBe("e0-a4-a");
  });
});
