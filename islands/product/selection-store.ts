import { createStore } from "zustand/vanilla";

/**
 * The product page's current choice, shared by the islands on that page: the options
 * form writes it, the 360 viewer follows `frontId` (each orientation has its own frames).
 * The server renders the same choice, so the store starts from the page's markup.
 */
export interface ProductSelection {
  productId: string;
  orientation: string;
  sizeId: string;
  frontId: string;
}

export interface SelectionState {
  selection: ProductSelection | undefined;
  select(selection: ProductSelection): void;
}

export const selectionStore = createStore<SelectionState>()((set) => ({
  selection: undefined,
  select: (selection) => set({ selection }),
}));
