/**
 * Rendered HTML of pages that are the same for every shopper without a cart (home,
 * range and product pages), kept briefly in this process. A page is stored only when
 * nothing personal went into it: no cart cookie, no CSRF token. Each instance keeps
 * its own copy; nothing here must survive a restart.
 */
export interface PageCache {
  get(key: string): Buffer | undefined;
  set(key: string, html: string): void;
}

export function createPageCache({ ttlMs = 30_000, maxEntries = 500, now = Date.now } = {}): PageCache {
  // Stored encoded: a hit then costs no UTF-8 encoding of the whole page.
  const entries = new Map<string, { html: Buffer; expires: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.html;
    },
    set(key, html) {
      entries.delete(key);
      entries.set(key, { html: Buffer.from(html, "utf8"), expires: now() + ttlMs });
      // Maps keep insertion order: the first key is the oldest.
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  };
}
