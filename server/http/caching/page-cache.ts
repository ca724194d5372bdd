import { constants, gzipSync } from "node:zlib";

/**
 * Rendered HTML of a page, kept briefly in this process under a key that names everything
 * it shows (pages.ts). Its forms carry the shared form token of the hour the page was made,
 * which is part of the key, so the bytes are the same for everyone who sees the same data
 * (form-protection.ts). Each instance keeps its own copy; nothing here must survive a restart.
 */
export interface CachedPage {
  html: Buffer;
  /** The gzip answer, made at the first browser that takes gzip. */
  gzip?: Buffer;
  /**
   * How hard that gzip is worth compressing: "shared" pages (home, a product) are answered
   * many times, so the best level pays once; a shopper's own page (their cart) is mostly
   * answered once, so the fastest level (docs/performance.md).
   */
  answeredOften: boolean;
}

export interface PageCache {
  get(key: string): CachedPage | undefined;
  set(key: string, page: CachedPage): void;
}

export function createPageCache({ ttlMs = 30_000, maxEntries = 500, now = Date.now } = {}): PageCache {
  const entries = new Map<string, { page: CachedPage; expires: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.page;
    },
    set(key, page) {
      entries.delete(key);
      entries.set(key, { page, expires: now() + ttlMs });
      // Maps keep insertion order: the first key is the oldest.
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  };
}

/** Rendered HTML, encoded once: a hit then costs no UTF-8 encoding of the whole page. */
export function keptPage(html: string, answeredOften: boolean): CachedPage {
  return { html: Buffer.from(html, "utf8"), answeredOften };
}

/** The page gzip-encoded, compressed at its first use and kept with it. */
export function pageGzip(page: CachedPage): Buffer {
  page.gzip ??= gzipSync(page.html, {
    level: page.answeredOften ? constants.Z_BEST_COMPRESSION : constants.Z_BEST_SPEED,
  });
  return page.gzip;
}

/** Whether an Accept-Encoding header allows gzip (and does not refuse it with q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  // Asked on every request, and a browser sends the same header each time.
  if (header === lastHeader) return lastAnswer;
  lastAnswer = parsedAcceptsGzip(header);
  lastHeader = header;
  return lastAnswer;
}
let lastHeader: string | undefined;
let lastAnswer = false;

function parsedAcceptsGzip(header: string): boolean {
  for (const entry of header.split(",")) {
    const [coding, ...params] = entry.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}
