import { createStore } from "zustand/vanilla";

/**
 * The product page's current choice, shared by the islands on that page: the options
 * form writes it, the 360 viewer follows `frontId` (each orientation has its own frames),
 * the add-to-cart bar shows `choice` and `price`.
 * The server renders the same choice, so the store starts from the page's markup.
 */
export interface ProductSelection {
  productId: string;
  orientation: string;
  sizeId: string;
  frontId: string;
  /** The option in the shopper's words ("Staand, 21x30 cm"), for whatever names it elsewhere (the add-to-cart bar). */
  choice?: string;
  /** The unit price, formatted. */
  price?: string;
  /** Whether the option can be ordered now. */
  available?: boolean;
}

export interface SelectionState {
  selection: ProductSelection | undefined;
  select(selection: ProductSelection): void;
}

export const selectionStore = createStore<SelectionState>()((set) => ({
  selection: undefined,
  select: (selection) => set({ selection }),
}));
