import {
  type CustomerServiceContact,
  customerServiceContact,
  loadCompany,
  sellerLine,
} from "../domain/company.ts";
import type { Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";

// Read once, like the price list: every mail names the same seller as the footer and the Impressum.
const company = loadCompany();

/** The seller in one line (content/company.json): name, address, register and VAT id. */
export function sellerSignature(t: Translate, locale: Locale): string {
  return t("legal.footer.company", sellerLine(company, locale));
}

/** Where the mail's reader reaches customer service, in the mail's language. */
export function mailContact(locale: Locale): CustomerServiceContact {
  return customerServiceContact(company, locale);
}

/** How every order mail ends: where to ask questions, the greeting, the shop's name and the seller. */
export function mailClosing(t: Translate, locale: Locale): string[] {
  return [
    t("orderMail.questions", {
      email: mailContact(locale).email,
      phone: mailContact(locale).phone,
      hours: t("footer.hours"),
    }),
    "",
    t("orderMail.closing"),
    t("site.name"),
    sellerSignature(t, locale),
    "",
  ];
}
