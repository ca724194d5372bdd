/**
 * A tab's address fragment is its label in plain letters: "Uploads" is #uploads and
 * "Veelgestelde vragen" #veelgestelde-vragen. Case, accents and punctuation do not
 * matter, so #Uploads, #uplöads and #UPLOADS all find the tab labelled Uploads. The
 * server gives each panel this id (links work without JavaScript), the tabs island
 * matches the fragment the same way. Shared with the browser: no dependencies.
 */
export function tabSlug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "ss")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

/** Reads a location.hash ("#Uploads", "#upl%C3%B6ads") as a slug; "" when there is none. */
export function hashSlug(hash: string): string {
  const raw = hash.startsWith("#") ? hash.slice(1) : hash;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape is matched as it is.
  }
  return tabSlug(decoded);
}

/** The index of the label a fragment names, or -1. */
export function tabForHash(hash: string, labels: readonly string[]): number {
  const wanted = hashSlug(hash);
  if (!wanted) return -1;
  return labels.findIndex((label) => tabSlug(label) === wanted);
}
