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
