import sharp, { type Metadata } from "sharp";
import { detectPhotoFormat, type PhotoFormat } from "../domain/photo-type.ts";

/** Why a file was refused; the route turns it into the shopper's words (editor.rejected.<reason>). */
export type RejectReason =
  | "empty"
  | "tooLarge"
  | "notPhoto"
  | "unreadable"
  | "heicUnsupported"
  | "tooSmall"
  | "tooManyPixels"
  | "tooSlow"
  | "projectFull"
  | "shopperFull"
  | "tooMany"
  | "rateLimited"
  | "trailingData"
  | "locationKept"
  | "bytesRateLimited"
  | "storageFull"
  /** The uploader's subscription is suspended: its storage is read-only until the month is paid. */
  | "subscriptionPaused"
  /** The uploader's plan has no room left (its storageGb). */
  | "planStorageFull";

export interface PhotoHeader {
  format: PhotoFormat;
  /** Upright: a photo that EXIF turns a quarter has its sides swapped here. */
  width: number;
  height: number;
}

// One libvips thread per decode on every platform (glibc builds already default to it),
// so the decode queue's two slots bound the cores photos take, whatever the machine.
sharp.concurrency(1);

/** Smaller than this on its short side would print as a blur on a page. */
const minimumSide = 200;
export const thumbnailSide = 480;

/** sharp's prebuilt libvips reads AVIF but not HEVC-coded HEIC: say so, rather than "broken". */
const unreadable = (format: PhotoFormat): RejectReason =>
  format === "heic" ? "heicUnsupported" : "unreadable";

/**
 * Checks a file from its header alone: the content's magic bytes, then the size the
 * image declares, read by sharp's metadata() without decoding a pixel. A 31 KB PNG can
 * declare 16000 × 16000 pixels; it is refused here, in a few milliseconds, instead of
 * costing a core and a quarter of a gigapixel to decode.
 */
export async function readPhotoHeader(
  data: Buffer,
  maxPixels: number,
): Promise<({ ok: true } & PhotoHeader) | { ok: false; reason: RejectReason }> {
  if (data.length === 0) return { ok: false, reason: "empty" };
  const format = detectPhotoFormat(data);
  if (!format) return { ok: false, reason: "notPhoto" };
  let meta: Metadata;
  try {
    // No pixel limit of sharp's own here: it would call a 20000 × 20000 image unreadable, not too large.
    meta = await sharp(data, { failOn: "error", limitInputPixels: false }).metadata();
  } catch {
    return { ok: false, reason: unreadable(format) };
  }
  if (!meta.width || !meta.height) return { ok: false, reason: "unreadable" };
  if (meta.width * meta.height > maxPixels) return { ok: false, reason: "tooManyPixels" };
  // EXIF orientations 5-8 turn the picture a quarter: its upright size swaps.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = turned ? meta.height : meta.width;
  const height = turned ? meta.width : meta.height;
  if (Math.min(width, height) < minimumSide) return { ok: false, reason: "tooSmall" };
  return { ok: true, format, width, height };
}

/**
 * Decodes a photo whose header passed and makes its thumbnail: an upright JPEG at most
 * 480 px on its long side. A truncated or disguised file fails here. libvips itself
 * refuses more than `maxPixels` too (should a header and its content disagree) and
 * stops after `timeoutMs`, rounded up to whole seconds, the only unit sharp knows.
 * Callers run it through the decode queue (decode-queue.ts), never directly.
 */
export async function makeThumbnail(
  data: Buffer,
  limits: { maxPixels: number; timeoutMs: number },
): Promise<Buffer> {
  return sharp(data, { failOn: "error", limitInputPixels: limits.maxPixels })
    .timeout({ seconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) })
    .rotate()
    .resize({ width: thumbnailSide, height: thumbnailSide, fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
}

/** Why makeThumbnail failed, as the shopper is told; the messages are libvips' own. */
export function thumbnailFailure(err: unknown, format: PhotoFormat): RejectReason {
  const message = err instanceof Error ? err.message : "";
  if (/pixel limit/i.test(message)) return "tooManyPixels";
  if (/^timeout/i.test(message)) return "tooSlow";
  return unreadable(format);
}
