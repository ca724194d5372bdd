import type { Kysely } from "kysely";
import { orderLinkCode, orderLinkParameter } from "../../server/domain/order-link.ts";
import { orderNumber } from "../../server/domain/order-number.ts";
import type { Schema } from "../../server/store/schema.ts";
import { testSecret } from "./app.ts";

/** An order row as the checkout writes it (Anna's photo book to Utrecht), for tests that need one in place. */
export function orderRow(idempotencyKey: string, cartId: string) {
  return {
    idempotency_key: idempotencyKey,
    cart_id: cartId,
    locale: "nl",
    status: "awaiting_payment",
    name: "Anna",
    street: "Dorpsstraat 1",
    postcode: "1234 AB",
    city: "Utrecht",
    country: "NL",
    email: "anna@example.nl",
    phone: null,
    subtotal_cents: 4999,
    shipping_cents: 495,
    vat_rate: 21,
    vat_cents: 868,
    total_cents: 5494,
    production_min_days: 3,
    production_max_days: 5,
    created_at: new Date().toISOString(),
  } as const;
}

/** An order of one photo book, placed for that book's project: its photos are then needed for production. */
export async function orderForBook(
  db: Kysely<Schema>,
  projectId: string,
  idempotencyKey: string,
  cartId = "cart-1",
) {
  const order = await db
    .insertInto("orders")
    .values(orderRow(idempotencyKey, cartId))
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("order_lines")
    .values({
      order_id: order.id,
      position: 1,
      product_id: "exclusive-photobook",
      orientation: "portrait",
      size_id: "21x30",
      product_name: "Exclusief fotoboek",
      quantity: 1,
      unit_cents: 4999,
      total_cents: 4999,
      project_id: projectId,
    })
    .execute();
  return order.id;
}

/**
 * An order's page with its own secret, as the payment provider's return and the confirmation
 * mail link to it (ADR 0089), for a shop made with testShop (its COOKIE_SECRET).
 */
export function orderPageLink(orderId: number, lang: "nl" | "de" = "nl"): string {
  const page = lang === "nl" ? "/bestelling/" : "/bestellung/";
  return `${page}${orderNumber(orderId)}?${orderLinkParameter}=${orderLinkCode(testSecret, orderId)}`;
}
