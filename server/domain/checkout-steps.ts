/**
 * The checkout's order of steps: contents → address → overview. A step that is opened
 * too early sends the shopper back to the first step that still needs doing.
 */
export type CheckoutStep = "cartContents" | "cartAddress" | "cartOverview";

export const checkoutSteps: readonly CheckoutStep[] = ["cartContents", "cartAddress", "cartOverview"];

export interface CheckoutState {
  /** Items that can be ordered now */
  orderableItems: number;
  /** Lines that cannot be ordered (a size no longer available): they must go first */
  blockedLines: number;
  hasAddress: boolean;
}

/** The step to go to instead of the wanted one, or undefined when the wanted step may be shown. */
export function redirectFor(wanted: CheckoutStep, state: CheckoutState): CheckoutStep | undefined {
  if (wanted === "cartContents") return undefined;
  if (state.orderableItems === 0 || state.blockedLines > 0) return "cartContents";
  if (wanted === "cartOverview" && !state.hasAddress) return "cartAddress";
  return undefined;
}
