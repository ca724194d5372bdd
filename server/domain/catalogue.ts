import { readFileSync } from "node:fs";
import { z } from "zod";
import { type Locale, locales } from "../i18n/locales.ts";

/**
 * The catalogue is one JSON file that content editors edit (content/catalogue.json).
 * It is checked whole at start-up so that a typo stops the shop with a message that
 * names the entry, instead of surfacing later as a broken product page.
 */

const localized = z.object(
  Object.fromEntries(locales.map((l) => [l, z.string().trim().min(1)])) as Record<Locale, z.ZodString>,
);

const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case words joined by -");

const localizedSlug = z.object(
  Object.fromEntries(locales.map((l) => [l, slug])) as Record<Locale, typeof slug>,
);

const workingDays = z
  .object({ min: z.number().int().min(1).max(30), max: z.number().int().min(1).max(30) })
  .refine((d) => d.min <= d.max, "min must not exceed max");

export const orientations = ["portrait", "landscape", "square"] as const;
export type Orientation = (typeof orientations)[number];

const sizeSchema = z.object({
  id: z.string().regex(/^[0-9]+x[0-9]+$/, "must look like 30x21 (width x height in cm)"),
  orientation: z.enum(orientations),
  priceCents: z.number().int().positive(),
  /** false: listed (so shared links keep working) but cannot be ordered for now */
  available: z.boolean().default(true),
});

/** The 3D shapes scripts/generate-360-frames.ts knows how to draw. */
export const modelShapes = ["book", "stack", "sheet", "canvas", "calendar"] as const;
export type ModelShape = (typeof modelShapes)[number];

const frontId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case words joined by -");

/**
 * Product safety (GPSR, Regulation (EU) 2023/988, art. 19): what a shop selling at a
 * distance shows with each product. The manufacturer is the company itself
 * (content/company.json) unless the product names another.
 */
const manufacturerSchema = z.object({
  name: z.string().trim().min(1),
  address: z.object({
    street: z.string().trim().min(1),
    postcode: z.string().trim().min(1),
    city: z.string().trim().min(1),
    countryCode: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code such as NL"),
  }),
  email: z.email("must be an e-mail address"),
});

const safetySchema = z.object({
  /** The type number on the product and its packaging: the product identifier. */
  model: z.string().regex(/^[A-Z0-9]+(?:-[A-Z0-9]+)*$/, "must be a type number such as FH-CV-01"),
  /** Only when someone else makes the product; otherwise the company is the manufacturer. */
  manufacturer: manufacturerSchema.optional(),
  /** Warnings and instructions that matter for safe use (mounting a canvas, say); only where there are any. */
  information: localized.optional(),
});

const productSchema = z.object({
  id: slug,
  category: slug,
  slug: localizedSlug,
  name: localized,
  summary: localized,
  image: z.string().regex(/^\/static\/images\/[\w./-]+$/, "must be a path under /static/images/"),
  /** The 360-degree viewer's frame set per orientation (the image host's {frontId}). */
  fronts: z.partialRecord(z.enum(orientations), frontId),
  /** How the frame generator draws the product: its shape and cover colour. */
  model: z.object({
    shape: z.enum(modelShapes),
    colour: z.string().regex(/^#[0-9a-f]{6}$/i, "must be a colour like #1f3a4d"),
  }),
  freeShipping: z.boolean(),
  production: z.object({
    standard: workingDays,
    rush: workingDays.extend({ surchargeCents: z.number().int().positive() }).optional(),
  }),
  sizes: z.array(sizeSchema).min(1),
  safety: safetySchema,
  recommended: z.object({
    orientation: z.enum(orientations),
    size: z.string(),
    reason: localized,
  }),
});

const categorySchema = z.object({
  id: slug,
  slug: localizedSlug,
  name: localized,
  intro: localized,
});

const catalogueSchema = z.object({
  categories: z.array(categorySchema).min(1),
  products: z.array(productSchema).min(1),
});

export type Category = z.infer<typeof categorySchema>;
export type Product = z.infer<typeof productSchema>;
export type ProductSize = z.infer<typeof sizeSchema>;
export type ProductModel = Product["model"];
export type ProductSafety = Product["safety"];
export type Manufacturer = z.infer<typeof manufacturerSchema>;

export interface Catalogue {
  categories: readonly Category[];
  products: readonly Product[];
  product(id: string): Product | undefined;
  productsIn(categoryId: string): readonly Product[];
  category(id: string): Category | undefined;
  /** Every 360-degree front in the catalogue, with the product and orientation it shows. */
  fronts(): readonly CatalogueFront[];
}

export interface CatalogueFront {
  id: string;
  product: Product;
  orientation: Orientation;
}

export class CatalogueError extends Error {
  override name = "CatalogueError";
}

/** Where an entry sits, in words an editor can find in the file: products[3] "fotoboek-a4" > sizes[1] > priceCents */
export function describePath(data: unknown, path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  let node: unknown = data;
  for (const key of path) {
    node = node && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined;
    if (typeof key === "number") {
      const id = node && typeof node === "object" && "id" in node ? (node as { id: unknown }).id : undefined;
      parts[parts.length - 1] += typeof id === "string" ? `[${key}] "${id}"` : `[${key}]`;
    } else {
      parts.push(String(key));
    }
  }
  return parts.join(" > ") || "(top level)";
}

/** Rules that span entries, which the per-field schema cannot express. */
function crossCheck(data: z.infer<typeof catalogueSchema>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const c of data.categories) {
    if (seen.has(`c:${c.id}`)) problems.push(`categories "${c.id}": duplicate id`);
    seen.add(`c:${c.id}`);
  }
  const slugs = new Set<string>();
  for (const p of data.products) {
    const where = `products "${p.id}"`;
    if (seen.has(`p:${p.id}`)) problems.push(`${where}: duplicate id`);
    seen.add(`p:${p.id}`);
    if (!seen.has(`c:${p.category}`)) problems.push(`${where} > category: no category "${p.category}"`);
    for (const l of locales) {
      const key = `${l}:${p.slug[l]}`;
      if (slugs.has(key)) problems.push(`${where} > slug > ${l}: "${p.slug[l]}" is used twice`);
      slugs.add(key);
    }
    const sizeKeys = new Set<string>();
    for (const s of p.sizes) {
      const key = `${s.orientation}/${s.id}`;
      if (sizeKeys.has(key)) problems.push(`${where} > sizes: ${key} is listed twice`);
      sizeKeys.add(key);
    }
    for (const s of p.sizes) {
      const front = p.fronts[s.orientation];
      if (!front) problems.push(`${where} > fronts: no front for ${s.orientation}`);
    }
    for (const front of Object.values(p.fronts)) {
      if (seen.has(`f:${front}`)) problems.push(`${where} > fronts: "${front}" is used twice`);
      seen.add(`f:${front}`);
    }
    const rec = `${p.recommended.orientation}/${p.recommended.size}`;
    if (!sizeKeys.has(rec)) problems.push(`${where} > recommended: ${rec} is not one of its sizes`);
  }
  return problems;
}

export function parseCatalogue(data: unknown, source = "catalogue"): Catalogue {
  const result = catalogueSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new CatalogueError(
      `${source}: ${describePath(data, issue?.path ?? [])}: ${issue?.message ?? "invalid"}`,
    );
  }
  const problems = crossCheck(result.data);
  if (problems.length > 0) throw new CatalogueError(`${source}: ${problems.join("; ")}`);

  const { categories, products } = result.data;
  const byId = new Map(products.map((p) => [p.id, p]));
  const categoryById = new Map(categories.map((c) => [c.id, c]));
  const fronts: CatalogueFront[] = products.flatMap((product) =>
    orientations.flatMap((orientation) => {
      const id = product.fronts[orientation];
      return id ? [{ id, product, orientation }] : [];
    }),
  );
  return {
    categories,
    products,
    product: (id) => byId.get(id),
    productsIn: (categoryId) => products.filter((p) => p.category === categoryId),
    category: (id) => categoryById.get(id),
    fronts: () => fronts,
  };
}

export function loadCatalogue(file: string): Catalogue {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new CatalogueError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new CatalogueError(`${file}: is not valid JSON (${(err as Error).message})`);
  }
  return parseCatalogue(data, file);
}

/**
 * The lowest price a shopper can pay for the product, for "vanaf" labels: of the sizes
 * that can be ordered now, or of all when none can.
 */
export function fromPriceCents(product: Product): number {
  const orderable = product.sizes.filter((s) => s.available);
  return Math.min(...(orderable.length > 0 ? orderable : product.sizes).map((s) => s.priceCents));
}
