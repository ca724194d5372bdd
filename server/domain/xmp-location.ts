/**
 * Where a photo was taken, as XMP (the XML packet cameras and editors add next to EXIF)
 * can say it: the EXIF GPS fields mirrored (exif:GPSLatitude, …), Photoshop's city, state
 * and country, and IPTC's location structures. Prefixes are the writer's choice, so names
 * are matched on their local part after any prefix.
 */
const locationNames = [
  "GPS[A-Za-z]*",
  "City",
  "State",
  "Country",
  "CountryCode",
  "Location",
  "LocationCreated",
  "LocationShown",
  "Sublocation",
].join("|");

/** `prefix:Name="…"` or `prefix:Name='…'` as an attribute. */
const asAttribute = new RegExp(`\\s[\\w.-]+:(?:${locationNames})\\s*=\\s*(?:"[^"]*"|'[^']*')`, "g");
/** `<prefix:Name …>…</prefix:Name>` or `<prefix:Name …/>` as an element. */
const asElement = new RegExp(
  `<([\\w.-]+:(?:${locationNames}))(?=[\\s/>])[^>]*?(?:/>|>[\\s\\S]*?</\\1\\s*>)`,
  "g",
);

/** Whether the packet names a place. */
export function xmpHasLocation(xmp: Buffer): boolean {
  const text = xmp.toString("latin1");
  asAttribute.lastIndex = 0;
  asElement.lastIndex = 0;
  return asAttribute.test(text) || asElement.test(text);
}

/**
 * Blanks every location property in place with spaces, so the packet keeps its length
 * (and its container every offset) and stays well-formed XML: whitespace may stand
 * between attributes and between elements. Answers whether anything was blanked.
 */
export function blankXmpLocationInPlace(xmp: Buffer): boolean {
  // latin1 maps each byte to one character, so string positions are byte positions.
  const text = xmp.toString("latin1");
  let changed = false;
  for (const pattern of [asElement, asAttribute]) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      xmp.fill(0x20, match.index, match.index + match[0].length);
      changed = true;
    }
  }
  return changed;
}
