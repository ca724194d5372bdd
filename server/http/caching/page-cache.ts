import { randomBytes } from "node:crypto";
import { constants, crc32, deflateRawSync, gzipSync } from "node:zlib";
import { crc32Combine, crc32Shift } from "./crc32-combine.ts";

/**
 * Rendered HTML of pages that every shopper sees alike (home, range and product pages),
 * kept briefly in this process. Nothing personal goes in: the key holds the one thing
 * that differs (the header's cart count), and the CSRF token of a form is stored as a
 * marker that each response fills with the shopper's own token. Each instance keeps
 * its own copy; nothing here must survive a restart.
 */
export interface CachedPage {
  /** The page cut at each token marker: one part for a page without a form. */
  parts: Buffer[];
  /**
   * The same parts, each compressed once as raw deflate blocks that end on a byte
   * boundary (a sync flush; the last part ends the stream), with each part's CRC-32 and the
   * operator that moves a checksum past it (crc32-combine.ts). A gzip answer is these with
   * the shopper's token between them as stored blocks: no compression per request.
   *
   * Made at the page's second gzip answer with another token, not when it is kept: most
   * kept pages of one shopper's own are answered once (a crowd, each shopper once), and
   * compressing every part on its own took a cold cart page about 0.4 ms (a zlib stream
   * per part), against one stream for the whole page (docs/performance.md).
   */
  blocks?: { deflated: Buffer[]; crcs: number[]; shifts: number[] };
  /** How many gzip answers were made for it with a token of their own: the second makes `blocks`. */
  filled: number;
  /** A page without a form is the same for everyone, so its whole gzip answer is kept ready. */
  gzipped?: Buffer;
  /** The answer for visitors without cookies, whose forms all carry the same token this hour. */
  shared?: { token: string; gzip: Buffer };
  /**
   * The last answer made for a shopper's own form secret (their signed cookie as sent):
   * the token in it stays good for that secret, so the same browser asking again gets the
   * same bytes. Kept pages of one cart are one shopper's; a shared page just swaps it.
   */
  forSecret?: { secret: string; gzip: Buffer };
}

export interface PageCache {
  get(key: string): CachedPage | undefined;
  set(key: string, page: CachedPage): void;
}

/**
 * Stands in for the CSRF token in one rendering of a page that is kept: plain characters
 * that HTML escaping leaves alone. New and random for every rendering, and never sent, so
 * no text a shopper can type (a search, a name, a form's value shown back) can be it and
 * be filled with the token of whoever gets the page; a fixed marker could be.
 */
export function newTokenMarker(): string {
  return `csrf-token-${randomBytes(16).toString("hex")}`;
}

export function createPageCache({ ttlMs = 30_000, maxEntries = 500, now = Date.now } = {}): PageCache {
  // Stored encoded: a hit then costs no UTF-8 encoding of the whole page.
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

/** Rendered HTML, encoded once and cut where the token goes: at `marker`, the one it was rendered with. */
export function cutPage(html: string, marker: string): CachedPage {
  const parts = html.split(marker).map((part) => Buffer.from(part, "utf8"));
  const page: CachedPage = { parts, filled: 0 };
  if (parts.length === 1)
    page.gzipped = gzipSync(parts[0] as Buffer, { level: constants.Z_BEST_COMPRESSION });
  return page;
}

/** Each part compressed on its own, ending on a byte boundary, with its checksum's pieces. */
function blocksOf(page: CachedPage): NonNullable<CachedPage["blocks"]> {
  if (page.blocks) return page.blocks;
  const { parts } = page;
  const last = parts.length - 1;
  page.blocks = {
    deflated: parts.map((part, i) =>
      deflateRawSync(part, {
        level: constants.Z_BEST_COMPRESSION,
        finishFlush: i === last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
      }),
    ),
    // Node 20's crc32 answers 0 for an empty buffer that went through deflate; empty adds nothing anyway.
    crcs: parts.map((part) => (part.length > 0 ? crc32(part) : 0)),
    shifts: parts.map((part) => crc32Shift(part.length)),
  };
  return page.blocks;
}

/** The cached page for one shopper: their token where the marker was. */
export function fillPage(page: CachedPage, token: () => string): Buffer {
  if (page.parts.length === 1) return page.parts[0] as Buffer;
  const value = Buffer.from(token(), "utf8");
  const pieces: Buffer[] = [];
  page.parts.forEach((part, i) => {
    if (i > 0) pieces.push(value);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

// RFC 1952: magic, deflate, no flags, no time, "maximum compression", unknown OS.
const gzipHeader = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]);

/** RFC 1951 stored (uncompressed, not final) block; the preceding part ended on a byte boundary. */
function storedBlock(data: Buffer): Buffer {
  const block = Buffer.allocUnsafe(5 + data.length);
  block[0] = 0;
  block.writeUInt16LE(data.length, 1);
  block.writeUInt16LE(~data.length & 0xffff, 3);
  data.copy(block, 5);
  return block;
}

/** The same page as fillPage, gzip-encoded, for a shopper whose browser accepts gzip. */
export function fillPageGzip(page: CachedPage, token: () => string): Buffer {
  if (page.gzipped) return page.gzipped;
  // The first answer compresses the filled page in one stream, at the fastest level: most
  // pages of a shopper's own are sent once. Only a page asked for again with another token
  // pays for its parts' blocks at the best level, which every later answer reuses.
  if (page.filled++ === 0 && !page.blocks)
    return gzipSync(fillPage(page, token), { level: constants.Z_BEST_SPEED });
  const { deflated, crcs, shifts } = blocksOf(page);
  const value = Buffer.from(token(), "utf8");
  const stored = storedBlock(value);
  const valueCrc = value.length > 0 ? crc32(value) : 0;
  const valueShift = crc32Shift(value.length);
  const pieces: Buffer[] = [gzipHeader];
  let crc = 0;
  let size = 0;
  deflated.forEach((part, i) => {
    if (i > 0) {
      pieces.push(stored);
      crc = crc32Combine(crc, valueCrc, valueShift);
      size += value.length;
    }
    pieces.push(part);
    crc = crc32Combine(crc, crcs[i] as number, shifts[i] as number);
    size += (page.parts[i] as Buffer).length;
  });
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  pieces.push(trailer);
  return Buffer.concat(pieces);
}

/**
 * The gzip answer for a token that many shoppers share (form-protection.ts): made once
 * and kept with the page until the token changes.
 */
export function sharedPageGzip(page: CachedPage, token: string): Buffer {
  if (page.gzipped) return page.gzipped;
  if (page.shared?.token !== token) page.shared = { token, gzip: fillPageGzip(page, () => token) };
  return page.shared.gzip;
}

/**
 * The gzip answer for the shopper whose form secret cookie is `secret`, made with `token`
 * once. It is kept only for a cookie that passes its signature check (`genuine`): a
 * tampered one gets a new secret and token this time, and a new answer next time too.
 */
export function secretPageGzip(
  page: CachedPage,
  secret: string,
  token: () => string,
  genuine: (secret: string) => boolean,
): Buffer {
  if (page.gzipped) return page.gzipped;
  if (page.forSecret?.secret === secret) return page.forSecret.gzip;
  const gzip = fillPageGzip(page, token);
  if (genuine(secret)) page.forSecret = { secret, gzip };
  return gzip;
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
