import type { Catalogue, Category, Orientation, Product, ProductSize } from "../../domain/catalogue.ts";
import { orientations } from "../../domain/catalogue.ts";
import type { OptionRequest } from "../../domain/product-options.ts";
import type { I18n } from "../../i18n/index.ts";
import { type Locale, perLocale } from "../../i18n/locales.ts";

/**
 * Typed links to catalogue pages. A product option is part of the address, in the
 * shopper's language (?orientatie=liggend&formaat=30x21, ?ausrichtung=querformat&format=30x21),
 * so every combination can be shared and opened without JavaScript.
 */
export interface ProductLinks {
  category(category: Category, locale: Locale): string;
  product(product: Product, locale: Locale): string;
  /** The product page showing one option; query names and values in the locale's words. */
  choice(product: Product, choice: ProductSize, locale: Locale): string;
  query(choice: ProductSize, locale: Locale): string;
  queryNames(locale: Locale): { orientation: string; size: string };
  orientationSlug(orientation: Orientation, locale: Locale): string;
  /** Reads the option from a query; anything but one plain value per name counts as unknown. */
  readRequest(query: unknown, locale: Locale): OptionRequest;
}

export function productLinks(i18n: I18n, catalogue: Catalogue): ProductLinks {
  const categoryOf = (product: Product) => catalogue.category(product.category) as Category;
  const names = (locale: Locale) => ({
    orientation: i18n.t[locale]("product.query.orientation"),
    size: i18n.t[locale]("product.query.size"),
  });
  const slug = (orientation: Orientation, locale: Locale) => i18n.t[locale](`orientationSlug.${orientation}`);
  const bySlug = perLocale((l) => new Map(orientations.map((o) => [slug(o, l), o])));

  const links: ProductLinks = {
    category: (category, locale) =>
      i18n.routes.pathFor("category", locale, { category: category.slug[locale] }),
    product: (product, locale) =>
      i18n.routes.pathFor("product", locale, {
        category: categoryOf(product).slug[locale],
        product: product.slug[locale],
      }),
    query(choice, locale) {
      const n = names(locale);
      return new URLSearchParams([
        [n.orientation, slug(choice.orientation, locale)],
        [n.size, choice.id],
      ]).toString();
    },
    choice: (product, choice, locale) => `${links.product(product, locale)}?${links.query(choice, locale)}`,
    queryNames: names,
    orientationSlug: slug,
    readRequest(query, locale) {
      const n = names(locale);
      const q = (query && typeof query === "object" ? query : {}) as Record<string, unknown>;
      const request: OptionRequest = {};
      const rawOrientation = q[n.orientation];
      if (rawOrientation !== undefined && rawOrientation !== "") {
        request.orientation =
          typeof rawOrientation === "string"
            ? (bySlug[locale].get(rawOrientation.trim().toLowerCase()) ?? "invalid")
            : "invalid";
      }
      const rawSize = q[n.size];
      if (rawSize !== undefined && rawSize !== "") {
        // A list (?formaat=a&formaat=b) is not a size the catalogue can hold.
        request.size = typeof rawSize === "string" ? rawSize.trim().toLowerCase() : "?";
      }
      return request;
    },
  };
  return links;
}
