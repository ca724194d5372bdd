import { addressLines } from "../domain/delivery-address.ts";
import { formatPrice } from "../domain/money.ts";
import { orderNumber } from "../domain/order-number.ts";
import { choiceText, workingDaysText } from "../i18n/product-texts.ts";
import type { Translate } from "../i18n/translate.ts";
import type { OrderDraft } from "../store/order-repository.ts";
import type { OutgoingMail } from "./outbox.ts";

/**
 * The order confirmation, as plain text in the order's language: what was ordered and
 * what it costs, where it goes, how long it takes, that payment is still to come, and
 * how to reach customer service.
 */
export function orderConfirmationMail(t: Translate, order: OrderDraft, orderId: number): OutgoingMail {
  const number = orderNumber(orderId);
  const shop = t("site.name");
  const money = (cents: number) => formatPrice(cents, order.locale);
  const amount = (label: string, cents: number) => `${label}: ${money(cents)}`;
  const text = [
    t("orderMail.greeting", { name: order.address.name }),
    "",
    t("orderMail.intro", { shop, number }),
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
    order.shippingCents === 0
      ? `${t("cart.shippingTo", { country: t(`fields.countries.${order.address.country}`) })}: ${t("cart.shippingFree")}`
      : amount(
          t("cart.shippingTo", { country: t(`fields.countries.${order.address.country}`) }),
          order.shippingCents,
        ),
    amount(t("cart.total"), order.totalCents),
    amount(t("cart.vat", { rate: order.vatRate }), order.vatCents),
    "",
    t("overview.addressHeading"),
    ...addressLines(order.address, t(`fields.countries.${order.address.country}`)),
    "",
    t("overview.deliveryHeading"),
    t("overview.production", { days: workingDaysText(t, order.production) }),
    "",
    t("overview.paymentHeading"),
    `${t("order.statusLabel")}: ${t("order.status.awaiting_payment")}`,
    t("order.payment"),
    "",
    t("orderMail.questions", {
      email: t("footer.email"),
      phone: t("footer.phone"),
      hours: t("footer.hours"),
    }),
    "",
    t("orderMail.closing"),
    shop,
    "",
  ].join("\n");
  return {
    kind: "order-confirmation",
    locale: order.locale,
    to: order.address.email,
    replyTo: t("footer.email"),
    subject: t("orderMail.subject", { number, shop }),
    text,
  };
}
