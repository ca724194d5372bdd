/**
 * The 360-degree viewer's frame set: which images exist and which ones a screen loads.
 * Shared by the server (frame route, product page markup) and the viewer island, so it
 * imports nothing from Node.
 */

import { phoneMaxWidth, tabletMaxWidth } from "./breakpoints.ts";

/** Square frame sizes in pixels: 320 for phones, 720 for everything wider. */
export const frameSizes = [320, 720] as const;
export type FrameSize = (typeof frameSizes)[number];

/** Frames per front; frame n shows the product turned (n - 1) × 10 degrees. */
export const frameCount = 36;

export function isFrameSize(value: number): value is FrameSize {
  return (frameSizes as readonly number[]).includes(value);
}

export function isFrameNumber(value: number): boolean {
  return Number.isInteger(value) && value >= 1 && value <= frameCount;
}

/** `imageHost` is an origin such as https://images.example.nl, or "" for the shop itself. */
export function frameUrl(
  imageHost: string,
  frontId: string,
  size: FrameSize,
  n: number,
  version: string,
): string {
  return `${imageHost}/pages/productpage/360/${frontId}/${size}/${n}.jpg?v=${encodeURIComponent(version)}`;
}

export interface FramePlan {
  size: FrameSize;
  /** Frame numbers (1..36) in turning order. */
  frames: number[];
}

/**
 * What a screen of this width loads. Smaller screens get every second frame: half the
 * bytes, and a finger cannot resolve 10-degree steps on a narrow image anyway.
 */
export function framePlan(viewportWidth: number): FramePlan {
  const size: FrameSize = viewportWidth <= phoneMaxWidth ? 320 : 720;
  const step = viewportWidth > tabletMaxWidth ? 1 : 2;
  const frames: number[] = [];
  for (let n = 1; n <= frameCount; n += step) frames.push(n);
  return { size, frames };
}
