import { addressLines } from "../domain/delivery-address.ts";
import { orderNumber } from "../domain/order-number.ts";
import { choiceText } from "../i18n/product-texts.ts";
import type { Translate } from "../i18n/translate.ts";
import type { OrderDraft } from "../store/order-repository.ts";
import { mailContact, sellerSignature } from "./mail-closing.ts";
import type { OutgoingMail } from "./outbox.ts";

/**
 * The mail that says the order is on its way, as plain text in the order's language: what
 * went into the parcel, to which address, and how to reach customer service. No prices: the
 * confirmation had them, and this one answers "what is coming, and where".
 */
export function shippingMail(t: Translate, order: OrderDraft, orderId: number): OutgoingMail {
  const number = orderNumber(orderId);
  const shop = t("site.name");
  const country = t(`fields.countries.${order.address.country}`);
  const text = [
    t("orderMail.greeting", { name: order.address.name }),
    "",
    t("shippingMail.intro", { number }),
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
