import { addressLines } from "../domain/delivery-address.ts";
import type { DayWindow } from "../domain/delivery-times.ts";
import type { LegalPages } from "../domain/legal-pages.ts";
import { formatPrice } from "../domain/money.ts";
import { orderNumber } from "../domain/order-number.ts";
import { deliveryAfterDispatch } from "../domain/order-production.ts";
import { intlLocale, type Locale } from "../i18n/locales.ts";
import { choiceText, workingDaysText } from "../i18n/product-texts.ts";
import type { Translate } from "../i18n/translate.ts";
import type { OrderDraft } from "../store/order-repository.ts";
import { mailClosing, mailContact } from "./mail-closing.ts";
import type { OutgoingMail } from "./outbox.ts";

/** A date as a mail shows it, without "today" or "tomorrow": the mail may be read days later. */
export function mailDate(date: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${date}T12:00:00Z`));
}

/** One day, or two dates as Intl writes a range ("woensdag 8 – vrijdag 10 april 2026"). */
export function mailWindow(window: DayWindow, locale: Locale): string {
  if (window.from === window.to) return mailDate(window.from, locale);
  return new Intl.DateTimeFormat(intlLocale[locale], {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).formatRange(new Date(`${window.from}T12:00:00Z`), new Date(`${window.to}T12:00:00Z`));
}

/**
 * The order confirmation, sent once the payment is received (never when the order is only
 * placed, so nobody can make the shop mail a stranger): plain text in the order's language
 * with what was ordered and what it cost, the amount paid, where it goes, when it is
 * expected to be sent, and how to reach customer service. Below that the terms and the
 * withdrawal information as they stand, inline: the copy on a durable medium the law asks
 * for (§ 312f (2) BGB, art. 6:230t BW), readable in any mail program, with nothing to open.
 */
export function orderConfirmationMail(
  t: Translate,
  order: OrderDraft,
  orderId: number,
  /** `pageUrl`: the order's page with its own secret, the only way a guest reopens it. */
  paid: { amountCents: number; dispatch: DayWindow; pageUrl: string },
  legal: LegalPages,
): OutgoingMail {
  const number = orderNumber(orderId);
  const shop = t("site.name");
  const money = (cents: number) => formatPrice(cents, order.locale);
  const amount = (label: string, cents: number) => `${label}: ${money(cents)}`;
  const country = t(`fields.countries.${order.address.country}`);
  // The legal texts' links to the shop's pages, made absolute from where the order's page is.
  const linkOrigin = URL.canParse(paid.pageUrl) ? new URL(paid.pageUrl).origin : "";
  const text = [
    t("orderMail.greeting", { name: order.address.name }),
    "",
    t("orderMail.intro", { shop, number }),
    t("orderMail.paid", { amount: money(paid.amountCents) }),
    "",
    t("orderMail.linesHeading"),
    ...order.lines.map((line) =>
      t(line.projectId ? "orderMail.projectLine" : "orderMail.line", {
        quantity: line.quantity,
        product: line.productName,
        choice: choiceText(t, line),
        total: money(line.totalCents),
      }),
    ),
    "",
    amount(t("cart.subtotal"), order.subtotalCents),
    ...subscriberLines(t, order, money),
    order.shippingCents === 0
      ? `${t("cart.shippingTo", { country })}: ${t("cart.shippingFree")}`
      : amount(t("cart.shippingTo", { country }), order.shippingCents),
    amount(t("cart.total"), order.totalCents),
    amount(t("cart.vat", { rate: order.vatRate }), order.vatCents),
    "",
    t("overview.addressHeading"),
    ...addressLines(order.address, country),
    "",
    t("overview.deliveryHeading"),
    t("overview.production", { days: workingDaysText(t, order.production) }),
    t("orderMail.dispatch", { window: mailWindow(paid.dispatch, order.locale) }),
    t("orderMail.delivery", {
      window: mailWindow(deliveryAfterDispatch(paid.dispatch, order.address.country), order.locale),
    }),
    "",
    t("orderMail.pageLink", { url: paid.pageUrl }),
    "",
    ...mailClosing(t, order.locale),
    t("legal.mail.divider"),
    t("legal.mail.intro"),
    "",
    legal.mailText("terms", order.locale, linkOrigin),
    "",
    t("legal.mail.divider"),
    legal.mailText("withdrawal", order.locale, linkOrigin),
  ].join("\n");
  return {
    kind: "order-confirmation",
    locale: order.locale,
    to: order.address.email,
    replyTo: mailContact(order.locale).email,
    orderId,
    subject: t("orderMail.subject", { number, shop }),
    text,
  };
}

/** What the photo subscription took off the order, a line each, as its page shows them. */
function subscriberLines(
  t: Translate,
  order: Pick<OrderDraft, "subscriber">,
  money: (cents: number) => string,
) {
  const benefits = order.subscriber;
  if (!benefits) return [];
  return [
    ...(benefits.freePrintsCents > 0
      ? [
          `${t("cart.subscriber.freePrints", { count: benefits.freePrints })}: −${money(benefits.freePrintsCents)}`,
        ]
      : []),
    ...(benefits.photoBookDiscountCents > 0
      ? [
          `${t("cart.subscriber.photoBookDiscount", { percent: benefits.photoBookDiscount })}: −${money(benefits.photoBookDiscountCents)}`,
        ]
      : []),
  ];
}
