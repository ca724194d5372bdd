import { formatPrice } from "../domain/money.ts";
import { unpaidExpiryHours } from "../domain/order-lifecycle.ts";
import { orderNumber } from "../domain/order-number.ts";
import type { Translate } from "../i18n/translate.ts";
import type { Order } from "../store/order-repository.ts";
import { mailClosing, mailContact } from "./mail-closing.ts";
import type { OutgoingMail } from "./outbox.ts";

/**
 * A payment that did not go through (failed, cancelled or expired at the provider): the
 * order still waits, and the link leads to its page, where the shopper pays again. Nothing
 * the shopper typed appears but their own name, to their own address.
 */
export function paymentFailedMail(
  t: Translate,
  order: Pick<Order, "locale" | "address" | "totalCents">,
  orderId: number,
  orderUrl: string,
): OutgoingMail {
  const number = orderNumber(orderId);
  const shop = t("site.name");
  const text = [
    t("orderMail.greeting", { name: order.address.name }),
    "",
    t("paymentFailedMail.intro", { number, shop, amount: formatPrice(order.totalCents, order.locale) }),
    t("paymentFailedMail.nothingTaken"),
    "",
    t("paymentFailedMail.payAgain"),
    orderUrl,
    "",
    t("paymentFailedMail.expiry", { hours: unpaidExpiryHours }),
    "",
    ...mailClosing(t, order.locale),
  ].join("\n");
  return {
    kind: "payment-failed",
    locale: order.locale,
    to: order.address.email,
    replyTo: mailContact(order.locale).email,
    orderId,
    subject: t("paymentFailedMail.subject", { number, shop }),
    text,
  };
}

/** The order expired unpaid (the clean-up job): nothing was taken, nothing will be made. */
export function orderExpiredMail(
  t: Translate,
  order: Pick<Order, "locale" | "address">,
  orderId: number,
): OutgoingMail {
  const number = orderNumber(orderId);
  const shop = t("site.name");
  const text = [
    t("orderMail.greeting", { name: order.address.name }),
    "",
    t("orderExpiredMail.intro", { number, shop, hours: unpaidExpiryHours }),
    t("orderExpiredMail.nothingTaken"),
    t("orderExpiredMail.again"),
    "",
    ...mailClosing(t, order.locale),
  ].join("\n");
  return {
    kind: "order-expired",
    locale: order.locale,
    to: order.address.email,
    replyTo: mailContact(order.locale).email,
    orderId,
    subject: t("orderExpiredMail.subject", { number, shop }),
    text,
  };
}
