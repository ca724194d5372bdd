import { orderNumber } from "../domain/order-number.ts";
import type { Translate } from "../i18n/translate.ts";
import type { Order } from "../store/order-repository.ts";
import { mailClosing, mailContact } from "./mail-closing.ts";
import type { OutgoingMail } from "./outbox.ts";

/** A link that adds a guest's order to an account works this long. */
export const orderClaimLinkHours = 24;

/**
 * To the order's own address, in the order's language: an account asks to take the order,
 * and only the link in this mail lets it (ADR 0089). It names the asking account, so whoever
 * placed the order sees who asked, and says that doing nothing leaves the order as it is.
 * It carries the asking account and the order, so deleting either account erases it (ADR 0092).
 */
export function orderClaimMail(
  t: Translate,
  order: Order,
  asking: { id: string; email: string },
  link: string,
): OutgoingMail {
  const number = orderNumber(order.id);
  const shop = t("site.name");
  const text = [
    t("orderClaimMail.greeting"),
    "",
    t("orderClaimMail.intro", { account: asking.email, number }),
    "",
    t("orderClaimMail.link", { url: link }),
    "",
    t("orderClaimMail.ignore", { hours: orderClaimLinkHours }),
    "",
    ...mailClosing(t, order.locale),
  ].join("\n");
  return {
    kind: "order-claim",
    locale: order.locale,
    to: order.address.email,
    replyTo: mailContact(order.locale).email,
    subject: t("orderClaimMail.subject", { number, shop }),
    text,
    accountId: asking.id,
    orderId: order.id,
  };
}
