import { addressLines } from "../domain/delivery-address.ts";
import { localMoment } from "../domain/delivery-times.ts";
import { orderNumber } from "../domain/order-number.ts";
import { deliveryAfterDispatch } from "../domain/order-production.ts";
import { choiceText } from "../i18n/product-texts.ts";
import type { Translate } from "../i18n/translate.ts";
import type { OrderDraft } from "../store/order-repository.ts";
import { mailContact, sellerSignature } from "./mail-closing.ts";
import { mailWindow } from "./order-confirmation.ts";
import type { OutgoingMail } from "./outbox.ts";

/**
 * The mail that says the order is on its way, as plain text in the order's language: what
 * went into the parcel, when it is expected, to which address, and how to reach customer
 * service. No prices: the confirmation had them, and this one answers "what is coming, when
 * and where".
 */
export function shippingMail(
  t: Translate,
  order: OrderDraft,
  orderId: number,
  shippedAt: Date,
): OutgoingMail {
  const number = orderNumber(orderId);
  const shop = t("site.name");
  const country = t(`fields.countries.${order.address.country}`);
  const on = localMoment(shippedAt).date;
  const shippedOn = { from: on, to: on };
  const text = [
    t("orderMail.greeting", { name: order.address.name }),
    "",
    t("shippingMail.intro", { number }),
    // The carrier's working days to the country, counted from the day it went out.
    t("shippingMail.delivery", {
      window: mailWindow(deliveryAfterDispatch(shippedOn, order.address.country), order.locale),
    }),
    "",
    t("shippingMail.linesHeading"),
    ...order.lines.map((line) =>
      t(line.projectId ? "shippingMail.projectLine" : "shippingMail.line", {
        quantity: line.quantity,
        product: line.productName,
        choice: choiceText(t, line),
      }),
    ),
    "",
    t("shippingMail.addressHeading"),
    ...addressLines(order.address, country),
    "",
    t("shippingMail.questions", {
      number,
      email: mailContact(order.locale).email,
      phone: mailContact(order.locale).phone,
      hours: t("footer.hours"),
    }),
    "",
    t("orderMail.closing"),
    shop,
    sellerSignature(t, order.locale),
    "",
  ].join("\n");
  return {
    kind: "order-shipped",
    locale: order.locale,
    to: order.address.email,
    replyTo: mailContact(order.locale).email,
    orderId,
    subject: t("shippingMail.subject", { number }),
    text,
  };
}
