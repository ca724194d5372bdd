import type { Config } from "../config.ts";
import type { Locale } from "../i18n/locales.ts";
import { workingDaysText } from "../i18n/product-texts.ts";
import type { Translate } from "../i18n/translate.ts";
import { shippingCosts, vatRates } from "./cart-pricing.ts";
import type { Catalogue } from "./catalogue.ts";
import { type Company, customerServiceContact } from "./company.ts";
import { transitDays } from "./delivery-times.ts";
import { markdownText, type PlaceholderValues } from "./legal-pages.ts";
import { formatPrice } from "./money.ts";
import { photosKeptAfterEndDays } from "./subscriber-storage.ts";

/**
 * What the legal pages' {placeholders} stand for: the facts the shop keeps elsewhere, so an
 * Impressum, a shipping table or a retention window can never disagree with what the shop
 * really does. Every value is Markdown; plain words are escaped so that an "_" in a name
 * stays an "_".
 */

export interface LegalFactsInput {
  company: Company;
  catalogue: Catalogue;
  config: Pick<Config, "retention" | "sessions" | "orderCutOff">;
  t: Record<Locale, Translate>;
  /** Days a cart is kept after its last change (its cookie's lifetime). */
  cartDays: number;
  /** Hours an unconfirmed sign-up link holds. */
  signupLinkHours: number;
}

const cell = (text: string) => markdownText(text);

function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.map(cell).join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ].join("\n");
}

export function legalFacts(input: LegalFactsInput): (locale: Locale) => PlaceholderValues {
  const { company, catalogue, config } = input;
  return (locale) => {
    const t = input.t[locale];
    const days = (count: number) => t("legal.facts.days", { count });
    const contact = customerServiceContact(company, locale);
    const address = `${company.address.street}, ${company.address.postcode} ${company.address.city}, ${company.address.country[locale]}`;
    const plain: Record<string, string> = {
      "company.name": company.name,
      "company.tradeName": company.tradeName,
      "company.legalForm": company.legalForm[locale],
      "company.representatives": company.representatives.join(", "),
      "company.street": company.address.street,
      "company.postcode": company.address.postcode,
      "company.city": company.address.city,
      "company.country": company.address.country[locale],
      "company.address": address,
      "company.email": contact.email,
      "company.phone": contact.phone,
      "company.phoneLink": contact.phoneLink,
      "company.register": company.register.name[locale],
      "company.registerNumber": company.register.number,
      "company.vatId": company.vatId,
      "retention.cartDays": String(input.cartDays),
      "retention.stagedUploadDays": String(config.retention.stagedUploadDays),
      "retention.subscriberPhotoDays": String(photosKeptAfterEndDays),
      "retention.emptyProjectDays": String(config.retention.emptyProjectDays),
      "retention.analyticsRawDays": String(config.retention.analyticsRawDays),
      "retention.mailBodyDays": String(config.retention.mailBodyDays),
      "retention.signupLinkHours": String(input.signupLinkHours),
      "sessions.idleDays": String(Math.round(config.sessions.idleMs / 86_400_000)),
      "shipping.cutOff": config.orderCutOff,
      "vat.NL": String(vatRates.NL),
      "vat.DE": String(vatRates.DE),
      "sessions.maxDays": String(Math.round(config.sessions.absoluteMs / 86_400_000)),
    };
    const values: PlaceholderValues = Object.fromEntries(
      Object.entries(plain).map(([name, value]) => [name, markdownText(value)]),
    );
    values["shipping.costs"] = table(
      [
        t("legal.facts.country"),
        t("legal.facts.shippingCost"),
        t("legal.facts.carrier"),
        t("legal.facts.transit"),
      ],
      (["NL", "DE"] as const).map((country) => [
        t(`fields.countries.${country}`),
        formatPrice(shippingCosts[country], locale),
        t(`legal.facts.carriers.${country}`),
        transitDays[country].min === transitDays[country].max
          ? days(transitDays[country].min)
          : t("legal.facts.daysRange", { min: transitDays[country].min, max: transitDays[country].max }),
      ]),
    );
    values["shipping.production"] = table(
      [
        t("legal.facts.product"),
        t("legal.facts.production"),
        t("legal.facts.rush"),
        t("legal.facts.freeShipping"),
      ],
      catalogue.products.map((product) => [
        product.name[locale],
        workingDaysText(t, product.production.standard),
        product.production.rush
          ? t("legal.facts.rushWith", {
              days: workingDaysText(t, product.production.rush),
              surcharge: formatPrice(product.production.rush.surchargeCents, locale),
            })
          : "–",
        product.freeShipping ? t("legal.facts.yes") : t("legal.facts.no"),
      ]),
    );
    return values;
  };
}
