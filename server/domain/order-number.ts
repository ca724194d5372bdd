/**
 * The number a shopper quotes to customer service: the order's row id, offset so every
 * number has six digits or more and never looks like a quantity or a price.
 */
const offset = 100_000;

export function orderNumber(orderId: number): string {
  return String(offset + orderId);
}

/** The order id behind a number from an address; undefined for anything that is not one. */
export function orderIdOf(number: string): number | undefined {
  if (!/^[1-9]\d{5,14}$/.test(number)) return undefined;
  const id = Number(number) - offset;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
