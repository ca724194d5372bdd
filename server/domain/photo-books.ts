import type { Product, ProductSize } from "./catalogue.ts";

/**
 * Photo books are the products the editor makes: the catalogue draws them as a book.
 * A format is one of a product's sizes, written "orientation:size" in forms
 * ("portrait:21x30"), so one select can offer every orientation and size.
 */
export function isPhotoBook(product: Product): boolean {
  return product.model.shape === "book";
}

export function formatValue(size: Pick<ProductSize, "orientation" | "id">): string {
  return `${size.orientation}:${size.id}`;
}

export function findFormat(product: Product, value: unknown): ProductSize | undefined {
  if (typeof value !== "string") return undefined;
  return product.sizes.find((s) => formatValue(s) === value);
}
