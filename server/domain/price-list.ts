import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { describePath } from "./catalogue.ts";
import { type DeliveryCountry, deliveryCountries } from "./postcode.ts";

/**
 * The prices that are not a product's: shipping per delivery country and the photo
 * subscription's plans. Editors own them in content/prices.json (products' prices are in
 * the catalogue); the file is checked whole when the shop starts, so a typo stops it with
 * a message naming the entry rather than charging a wrong amount. Money is integer cents.
 */

const zeroOrMore = "must be a whole number of cents, 0 or more";
const cents = z.number(zeroOrMore).int(zeroOrMore).nonnegative(zeroOrMore);
const aboveZero = "must be a whole number of cents above 0 (5.99 euros is 599)";
const positiveCents = z.number(aboveZero).int(aboveZero).positive(aboveZero);

const planSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case words joined by -"),
    monthlyCents: positiveCents,
    /** Photo storage in GB */
    storageGb: z.number().int().positive(),
    /** Free prints (10x15) per month */
    printsPerMonth: z.number().int().nonnegative(),
    /** Discount on photo books, in percent */
    photoBookDiscount: z.number().int().min(0).max(100),
    /** An introductory price for the first months, offered until the end of the current month. */
    offer: z.object({ monthlyCents: positiveCents, months: z.number().int().min(1).max(24) }).optional(),
    /** The plan most shoppers pick: marked on the page and chosen in the form by default. */
    recommended: z.boolean().default(false),
  })
  .refine((plan) => !plan.offer || plan.offer.monthlyCents < plan.monthlyCents, {
    message: "an offer must be cheaper than the plan's monthly price",
    path: ["offer", "monthlyCents"],
  });

const priceListSchema = z.object({
  shipping: z.object(
    Object.fromEntries(deliveryCountries.map((c) => [c, cents])) as Record<DeliveryCountry, typeof cents>,
  ),
  subscriptionPlans: z
    .array(planSchema)
    .min(1)
    .refine((plans) => new Set(plans.map((p) => p.id)).size === plans.length, "two plans have the same id")
    .refine(
      (plans) => plans.filter((p) => p.recommended).length === 1,
      "exactly one plan must be recommended",
    ),
});

export type PriceList = z.infer<typeof priceListSchema>;
export type Plan = PriceList["subscriptionPlans"][number];

export class PriceListError extends Error {
  override name = "PriceListError";
}

export function parsePriceList(data: unknown, source = "prices"): PriceList {
  const result = priceListSchema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new PriceListError(
    `${source}: ${describePath(data, issue?.path ?? [])}: ${issue?.message ?? "invalid"}`,
  );
}

export function loadPriceList(file: string): PriceList {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new PriceListError(`${file}: cannot be read as JSON (${reason})`);
  }
  return parsePriceList(data, file);
}

// The URL's path, not fileURLToPath: island tests load this under happy-dom, whose URL is not Node's.
export const priceListPath = resolve(dirname(new URL(import.meta.url).pathname), "../../content/prices.json");
