import type { Product } from "./catalogue.ts";
import {
  type CutOff,
  type DayWindow,
  deliveryWindow,
  dispatchWindow,
  localMoment,
  productionStart,
  transitDays,
} from "./delivery-times.ts";
import type { Country } from "./working-days.ts";

export interface WorkingDays {
  min: number;
  max: number;
}

/**
 * How long an order takes to make, in working days: it ships in one parcel, so the
 * slowest product sets both ends of the range. Standard production; the cart has no
 * rush option yet.
 */
export function orderProduction(products: readonly Pick<Product, "production">[]): WorkingDays {
  let min = 0;
  let max = 0;
  for (const product of products) {
    min = Math.max(min, product.production.standard.min);
    max = Math.max(max, product.production.standard.max);
  }
  return { min, max };
}

/**
 * When a paid order is expected to be sent: production starts on the day the payment came
 * in (before the cut-off on a working day) or the next working day, and the order goes out
 * on its last production day (delivery-times.ts, the rules the delivery-times page explains).
 */
export function dispatchAfterPayment(
  paidAt: Date,
  production: WorkingDays,
  country: Country,
  cutOff: CutOff,
): DayWindow {
  const start = productionStart(localMoment(paidAt), cutOff, country);
  // An order of nothing but free items has no production time: it goes out on its first day.
  return dispatchWindow(
    start,
    { min: Math.max(1, production.min), max: Math.max(1, production.max) },
    country,
  );
}

/**
 * When an order sent in `dispatch` is expected at the door: the carrier's working days to
 * the country after it, as the overview promised before the order (delivery-times.ts).
 */
export function deliveryAfterDispatch(dispatch: DayWindow, country: Country): DayWindow {
  return deliveryWindow(dispatch, transitDays[country], country);
}
