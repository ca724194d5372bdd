import { createHmac, timingSafeEqual } from "node:crypto";
import type { Locale } from "../i18n/locales.ts";
import type { RouteTable } from "../i18n/routes.ts";
import { orderNumber } from "./order-number.ts";

/**
 * A guest's order page opens by a secret of its own in its address (ADR 0089), never by a
 * cookie: the link the payment provider sends the shopper back to and the confirmation mail
 * holds. The secret is an HMAC of the order's id with the shop's secret, so the mail written
 * when the payment arrives can hold it without the database keeping it.
 */

/** The query parameter of the order page that holds the secret. */
export const orderLinkParameter = "code";

export function orderLinkCode(secret: string, orderId: number): string {
  return createHmac("sha256", secret).update(`order page ${orderId}`).digest("base64url");
}

/** Whether `code` (from an address) is the order's own; anything else, of any shape, is not. */
export function orderLinkHolds(secret: string, orderId: number, code: unknown): boolean {
  // The shape first: timingSafeEqual throws on inputs of different byte lengths ("é" is two).
  if (typeof code !== "string" || !/^[\w-]{43}$/.test(code)) return false;
  return timingSafeEqual(Buffer.from(code), Buffer.from(orderLinkCode(secret, orderId)));
}

/** The order page's path with its secret: what every link to it that must open it holds. */
export function orderPagePath(routes: RouteTable, locale: Locale, orderId: number, secret: string): string {
  const path = routes.pathFor("orderConfirmation", locale, { number: orderNumber(orderId) });
  return `${path}?${orderLinkParameter}=${orderLinkCode(secret, orderId)}`;
}
