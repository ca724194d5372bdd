import { desktopQuery, narrowPhoneQuery, panelWidths, phoneQuery, tabletQuery } from "./breakpoints.ts";

/*
 * What the build does with the widths in breakpoints.ts for the style sheets. Apart from
 * breakpoints.ts because only the build and its tests need it, and the islands bundle that.
 */

/**
 * The names style sheets use for these queries, in the form of CSS's custom media
 * (`@media (--desktop) { ... }`); the build replaces each with its query, and an unknown
 * name fails the build.
 */
export const customMedia: Readonly<Record<string, string>> = {
  "--narrow-phone": narrowPhoneQuery,
  "--phone": phoneQuery,
  "--tablet-or-phone": tabletQuery,
  "--desktop": desktopQuery,
  "--wider-than-600": `(min-width: ${panelWidths[0] + 1}px)`,
  "--wider-than-800": `(min-width: ${panelWidths[1] + 1}px)`,
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
