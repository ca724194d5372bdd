import { includedVat } from "../domain/cart-pricing.ts";
import { localMoment } from "../domain/delivery-times.ts";
import { formatPrice } from "../domain/money.ts";
import { subscriptionVatRate } from "../domain/subscription-vat.ts";
import type { IsoDate } from "../domain/working-days.ts";
import type { Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import type { Subscription } from "../store/subscription-repository.ts";
import { sellerSignature } from "./mail-closing.ts";
import { mailDate } from "./order-confirmation.ts";

/** A period the subscriber paid for, and the payment that paid it. */
export type PaidPeriod = { periodStart: IsoDate; periodEnd: IsoDate; amountCents: number; paymentId: string };

type Invoiced = Pick<Subscription, "id" | "name" | "email" | "locale" | "country" | "planId">;

/**
 * The invoice a subscription mail carries for a paid period: the first month, a renewal, a
 * period paid by hand, an upgrade's rest of a period. One text for all of them, so each says
 * what a small-amount invoice must (art. 35a Wet OB, § 33 UStDV): its number and date, the
 * seller with address and VAT id, the service and its period, the amount without VAT, the
 * VAT with its rate (the country the subscriber lives in, ADR 0110) and the total.
 */
export function subscriptionInvoice(
  t: Translate,
  subscription: Invoiced,
  paid: PaidPeriod,
  number: string,
  issuedAt: Date,
): { invoice: string; invoiceText: string } {
  const locale = subscription.locale as Locale;
  const rate = subscriptionVatRate(subscription);
  const vat = includedVat(paid.amountCents, rate);
  const invoiceText = t("subscriptionInvoice.text", {
    invoice: number,
    // The day it was paid on the shop's calendar, which is the day of the service's supply.
    issued: mailDate(localMoment(issuedAt).date, locale),
    seller: sellerSignature(t, locale),
    customer: subscription.name,
    email: subscription.email,
    country: t(`fields.countries.${subscription.country}`),
    plan: t(`subscription.plans.${subscription.planId}.name`),
    from: mailDate(paid.periodStart, locale),
    until: mailDate(paid.periodEnd, locale),
    net: formatPrice(paid.amountCents - vat, locale),
    vat: formatPrice(vat, locale),
    rate,
    amount: formatPrice(paid.amountCents, locale),
    payment: paid.paymentId,
    id: subscription.id,
  });
  return { invoice: number, invoiceText };
}
