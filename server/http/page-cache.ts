/**
 * Rendered HTML of pages that are the same for every shopper without a cart (home,
 * range and product pages), kept briefly in this process. A page is stored only when
 * nothing personal went into it: no cart cookie, no CSRF token. Each instance keeps
 * its own copy; nothing here must survive a restart.
 */
export interface PageCache {
  get(key: string): string | undefined;
  set(key: string, html: string): void;
}

export function createPageCache({ ttlMs = 30_000, maxEntries = 500, now = Date.now } = {}): PageCache {
  const entries = new Map<string, { html: string; expires: number }>();
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
      entries.set(key, { html, expires: now() + ttlMs });
      // Maps keep insertion order: the first key is the oldest.
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  };
}
