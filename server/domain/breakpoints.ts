/**
 * The screen widths the shop's layout changes at, named once. The spec's breakpoints: up
 * to 480 px is a phone, up to 725 px a tablet, anything wider a desktop. The server (the
 * 360 viewer's frame plan), the islands (matchMedia) and the style sheets (as
 * `@media (--desktop)`, filled in by the build) all read them from here; imports nothing
 * from Node, as the islands bundle it.
 */

export const phoneMaxWidth = 480;
export const tabletMaxWidth = 725;
/** The transform panel's sizes change above these (spec); footer, cards and spreads go two-column above 600 too. */
export const panelWidths = [600, 800] as const;

export const phoneQuery = `(max-width: ${phoneMaxWidth}px)`;
/** Phones and tablets: where the tabs become an accordion and the add-to-cart bar appears. */
export const tabletQuery = `(max-width: ${tabletMaxWidth}px)`;
const widerThan = (width: number) => `(min-width: ${width + 1}px)`;
export const desktopQuery = widerThan(tabletMaxWidth);

/**
 * The names style sheets use for these queries, in the form of CSS's custom media
 * (`@media (--desktop) { ... }`); the build replaces each with its query, and an unknown
 * name fails the build.
 */
export const customMedia: Readonly<Record<string, string>> = {
  "--phone": phoneQuery,
  "--tablet-or-phone": tabletQuery,
  "--desktop": desktopQuery,
  "--wider-than-600": widerThan(panelWidths[0]),
  "--wider-than-800": widerThan(panelWidths[1]),
};

/** Replaces every `(--name)` in the @media rules of a style sheet with its query. */
export function fillCustomMedia(css: string, where = "a style sheet"): string {
  return css.replace(/@media([^{;]*)\{/g, (rule, condition: string) => {
    if (!condition.includes("(--")) return rule;
    const filled = condition.replace(/\((--[a-z0-9-]+)\)/g, (_, name: string) => {
      const query = customMedia[name];
      if (!query)
        throw new Error(
          `${where}: unknown media name ${name} (known: ${Object.keys(customMedia).join(", ")})`,
        );
      return query;
    });
    return `@media${filled}{`;
  });
}

/** A media query width typed out in a style sheet instead of named: the widths above live only here. */
export function typedOutWidths(css: string): string[] {
  return [...css.matchAll(/@media[^{;]*\((?:min|max)-width:[^)]*\)/g)].map((match) => match[0]);
}
