import type { Kysely } from "kysely";
import type { Schema } from "../../server/store/schema.ts";

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
