/**
 * The screen widths the shop's layout changes at, named once. The spec's breakpoints: up
 * to 480 px is a phone, up to 725 px a tablet, anything wider a desktop. The server (the
 * 360 viewer's frame plan), the islands (matchMedia) and the style sheets (as
 * `@media (--desktop)`, filled in by the build through custom-media.ts) all read them from
 * here; imports nothing from Node, as the islands bundle it.
 */

export const phoneMaxWidth = 480;
/**
 * Below this a phone's row in the header has room for the logo's icon but not its name. The
 * narrowest screen a page must fit is 320 px (WCAG 1.4.10: a 1280 px window zoomed to 400%).
 */
export const narrowPhoneMaxWidth = 359;
export const tabletMaxWidth = 725;
/** The transform panel's sizes change above these (spec); footer, cards and spreads go two-column above 600 too. */
export const panelWidths = [600, 800] as const;

export const phoneQuery = `(max-width: ${phoneMaxWidth}px)`;
export const narrowPhoneQuery = `(max-width: ${narrowPhoneMaxWidth}px)`;
/** Phones and tablets: where the tabs become an accordion and the add-to-cart bar appears. */
export const tabletQuery = `(max-width: ${tabletMaxWidth}px)`;
// Typed as template literals, not built by a helper: a bundler drops an unused literal,
// never an unused call, and every island that imports one query would carry them all.
export const desktopQuery = `(min-width: ${tabletMaxWidth + 1}px)`;
