import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { type Locale, locales } from "../i18n/locales.ts";

/**
 * The company's details, defined once (content/company.json) for everything that names the
 * seller: the footer, the legal pages, the mails and the structured data. Checked whole at
 * start-up so that a missing field stops the shop with a message instead of an empty
 * Impressum.
 */

const localized = z.object(
  Object.fromEntries(locales.map((l) => [l, z.string().trim().min(1)])) as Record<Locale, z.ZodString>,
);

const serviceContact = z.object({
  email: z.string().email(),
  phone: z.string().regex(/^\+[0-9 ]{8,20}$/, "must be an international number such as +31 30 123 45 67"),
});

export const companySchema = z.object({
  /** The registered name, as in the trade register. */
  name: z.string().trim().min(1),
  /** The name shoppers know the shop by. */
  tradeName: z.string().trim().min(1),
  legalForm: localized,
  /** The people entitled to represent the company (bestuurders / Vertretungsberechtigte). */
  representatives: z.array(z.string().trim().min(1)).min(1),
  address: z.object({
    street: z.string().trim().min(1),
    postcode: z.string().trim().min(1),
    city: z.string().trim().min(1),
    country: localized,
    countryCode: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code such as NL"),
  }),
  /**
   * Where shoppers of each language reach customer service: the footer, the contact and
   * customer-service pages, the mails, the legal pages and the structured data all show this.
   */
  customerService: z.object(
    Object.fromEntries(locales.map((l) => [l, serviceContact])) as Record<Locale, typeof serviceContact>,
  ),
  register: z.object({ name: localized, number: z.string().trim().min(1) }),
  vatId: z.string().regex(/^[A-Z]{2}[0-9A-Z]{8,12}$/, "must be a VAT id such as NL001234567B01"),
});

export type Company = z.infer<typeof companySchema>;

export function parseCompany(json: unknown): Company {
  const parsed = companySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`content/company.json: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
  }
  return parsed.data;
}

// The URL's path, not fileURLToPath: island tests load this under happy-dom, whose URL is not Node's.
export const companyPath = resolve(dirname(new URL(import.meta.url).pathname), "../../content/company.json");

export function loadCompany(path: string = companyPath): Company {
  return parseCompany(JSON.parse(readFileSync(path, "utf8")));
}

/** How shoppers of a language reach customer service, with the phone number as a `tel:` link wants it. */
export interface CustomerServiceContact {
  email: string;
  phone: string;
  phoneLink: string;
}

export function customerServiceContact(company: Company, locale: Locale): CustomerServiceContact {
  const { email, phone } = company.customerService[locale];
  return { email, phone, phoneLink: phone.replaceAll(" ", "") };
}

/** The seller in one line's parts, for the footer and the mails' closing (legal.footer.company). */
export function sellerLine(company: Company, locale: Locale): Record<string, string> {
  const { address } = company;
  return {
    name: company.name,
    address: `${address.street}, ${address.postcode} ${address.city}, ${address.country[locale]}`,
    register: company.register.name[locale],
    registerNumber: company.register.number,
    vatId: company.vatId,
  };
}
