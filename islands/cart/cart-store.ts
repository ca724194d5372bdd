import { createStore } from "zustand/vanilla";

/**
 * Cart state shared by every island on the page (one module instance: esbuild puts it
 * in a shared chunk). Islands that change the cart call setCount with the server's new
 * total; the header badge follows.
 */
export interface CartState {
  count: number;
  setCount(count: number): void;
}

export const cartStore = createStore<CartState>()((set) => ({
  count: 0,
  setCount: (count) => set({ count: Math.max(0, Math.trunc(count)) }),
}));
