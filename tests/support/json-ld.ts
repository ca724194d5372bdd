/** Every JSON-LD block of a page, parsed, in the order the page has them. */
export function jsonLdBlocks(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]+)<\/script>/g)].map((m) =>
    JSON.parse(m[1] ?? ""),
  );
}

/** The page's one JSON-LD block of that @type; throws when there is none or more than one. */
export function jsonLdOfType(html: string, type: string): Record<string, unknown> {
  const found = jsonLdBlocks(html).filter((block) => block["@type"] === type);
  if (found.length !== 1) throw new Error(`expected one ${type} block, found ${found.length}`);
  return found[0] as Record<string, unknown>;
}
