import { readPageState, writePageState } from "../runtime/history-state.ts";

/**
 * The slide a shopper moved each carousel to, kept in the history entry (under "carousel",
 * one index per carousel's element id) so Back and Forward bring it back.
 */
const key = "carousel";
type Slides = Record<string, number>;

export function rememberedSlide(id: string, view: Window): number | undefined {
  const index = readPageState<Slides>(key, view)?.[id];
  return Number.isInteger(index) && (index as number) >= 0 ? index : undefined;
}

export function rememberSlide(id: string, index: number, view: Window): void {
  // A page can hold several carousels: each keeps the others' slides.
  writePageState(key, { ...readPageState<Slides>(key, view), [id]: index }, view);
}
